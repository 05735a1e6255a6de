import type { z } from 'zod';
import { problemSchema } from '@/lib/http/problem-schema';
import { ref } from './components';
import { jsonSchema, type JsonSchema } from './jsonschema';

/** Building blocks of the OpenAPI document, shared by the operation definitions (lib/api/operations.ts). */
export const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
export const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref(problemSchema) } } });

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

export const commonProblems = {
  '401': problem('Missing, invalid or expired access token (WWW-Authenticate: Bearer).'),
  '403': problem('The caller may not use this operation.'),
  '500': problem('Unexpected error; details only in the server log.'),
};

export const bodyProblems = {
  '400': problem('Invalid or missing fields, or malformed JSON; `errors` names each field.'),
  '413': problem('The body is larger than the server accepts (64 KiB by default).'),
  '415': problem('The body is not application/json.'),
};

export const etagHeader = {
  ETag: { description: 'Strong entity tag of this version; send it in If-Match to update safely.', schema: { type: 'string' } },
};
