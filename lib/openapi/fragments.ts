import type { z } from 'zod';
import type { AnswerDeclaration } from '@/lib/http/answers';
import { problemSchema } from '@/lib/http/problem-schema';
import { ref, schemaDoc } from './components';
import { jsonSchema, type JsonSchema } from '@/lib/validation/json-schema';

/** Building blocks of the OpenAPI document, shared by the operation definitions (lib/api/operations.ts). */
export const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const problemContent = () => ({ 'application/problem+json': { schema: ref(problemSchema) } });
export const problem = (description: string) => ({ description, content: problemContent() });

/** One declared answer (lib/http/answers.ts) as an OpenAPI response object. */
export function responseDoc(declared: AnswerDeclaration) {
  const { description, headers } = declared;
  const described = { description, ...(headers ? { headers } : {}) };
  switch (declared.kind) {
    case 'json':
      return { ...described, content: { ...json(schemaDoc(declared.schema)), ...(declared.orProblem ? problemContent() : {}) } };
    case 'problem':
      return { ...described, content: problemContent() };
    case 'empty':
      return described;
    case 'raw':
      return { ...described, content: { [declared.mediaType]: { schema: { type: 'string' } } } };
  }
}

/** Query parameters from a strict-object query schema, one per property. */
export function queryParameters(schema: z.ZodObject, descriptions: Record<string, string>) {
  const whole = jsonSchema(schema, 'input') as { properties: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(whole.properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: whole.required?.includes(name) ?? false,
    schema: property,
    ...(descriptions[name] ? { description: descriptions[name] } : {}),
  }));
}

/** Path parameters from an operation's `params` schema, one per property, described by its meta. */
export function pathParameters(schema: z.ZodObject) {
  const whole = jsonSchema(schema, 'input') as { properties: Record<string, JsonSchema> };
  return Object.entries(whole.properties).map(([name, { description, ...property }]) => ({
    name,
    in: 'path',
    required: true,
    schema: property,
    ...(typeof description === 'string' ? { description } : {}),
  }));
}

/** What any path can answer before a route runs, e.g. for a path that is not valid percent-encoding. */
export const malformedRequest = problem('The request itself is malformed (e.g. an undecodable path).');

export const etagHeader = {
  ETag: { description: 'Strong entity tag of this version; send it in If-Match to update safely.', schema: { type: 'string' } },
};
