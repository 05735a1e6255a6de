import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as JSON Schema 2020-12. `refOf`: a `$ref` to use instead of a schema nested inside
 * (a registered component), or undefined to write it out.
 */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output', refOf?: (inner: unknown) => JsonSchema | undefined): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    ...(refOf && {
      override: ({ zodSchema, jsonSchema: written, path }) => {
        const reference = path.length > 0 ? refOf(zodSchema) : undefined;
        if (!reference) return;
        for (const key of Object.keys(written)) delete (written as JsonSchema)[key];
        Object.assign(written, reference);
      },
    }),
  }) as JsonSchema;
  return rest;
}
