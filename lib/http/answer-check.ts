import 'server-only';
import { z } from 'zod';
import { standardProblems } from '@/lib/http/answers';
import type { Operation } from '@/lib/http/operation';
import { env } from '@/lib/config/env';
import { log } from '@/lib/log';
import { jsonSchema } from '@/lib/validation/json-schema';
import { problems } from './errors';
import { problemReply } from './problem';
import { headerOf, type Reply } from './reply';

/**
 * Every answer an operation gives, checked against what it declares (lib/http/answers.ts) in tests
 * and development, or wherever API_CHECK_RESPONSES says so (the e2e suite runs the production build
 * with it on): a JSON body must match its status's schema and the JSON Schema the OpenAPI document
 * publishes for it (which also refuses fields the schema does not name); a status must be declared;
 * a problem must have a status the operation declares or every operation of its kind may answer.
 * A mismatch is answered 500 (problem+json) and logged with the operation, the status and where in
 * the body it is, never the body. In production, unless asked for, answers pass untouched.
 */
function checksAnswers(): boolean {
  const settings = env();
  return settings.API_CHECK_RESPONSES ?? settings.NODE_ENV !== 'production';
}

type Route = (request: Request, params: Record<string, string>) => Promise<Reply>;

/** `route`, whose answers are checked against `operation`'s declarations while checks are on. */
export function checkingAnswers(operation: Operation, operationId: string, route: Route): Route {
  const checked: Route = async (request, params) => {
    const reply = await route(request, params);
    const mismatch = await mismatchOf(operation, reply);
    if (!mismatch) return reply;
    log.error('api.answer_mismatch', { operation: operationId, status: reply.status, ...mismatch });
    void reply.response?.body?.cancel();
    return problemReply(problems.internal());
  };
  // Unchecked, the route's own promise: no extra step per request in production.
  return (request, params) => (checksAnswers() ? checked(request, params) : route(request, params));
}

/** Where an answer departs from the declaration: `at` a dotted path into the body, `issue` what is wrong there. */
export type Mismatch = { at: string; issue: string };

async function mismatchOf(operation: Operation, reply: Reply): Promise<Mismatch | undefined> {
  const { status, response } = reply;
  const declared = operation.responses[status];
  const contentType = response ? response.headers.get('content-type') : headerOf(reply, 'content-type');
  const mediaType = contentType?.split(';')[0]?.trim() ?? '';
  if (mediaType === 'application/problem+json') {
    const allowed =
      declared?.kind === 'problem' || (declared?.kind === 'json' && declared.orProblem) || status in standardProblems(operation);
    return allowed ? undefined : { at: '', issue: 'undeclared_problem_status' };
  }
  if (!declared) return { at: '', issue: 'undeclared_status' };
  switch (declared.kind) {
    case 'raw':
      return undefined;
    case 'problem':
      return { at: '', issue: 'not_a_problem' };
    case 'empty':
      return (await bodyText(reply)) === '' ? undefined : { at: '', issue: 'unexpected_body' };
    case 'json':
      if (mediaType !== 'application/json') return { at: '', issue: 'not_json' };
      return bodyMismatch(declared.schema, await bodyText(reply));
  }
}

/** The answer's body as text ('' for none), leaving a handler's Response readable. */
async function bodyText(reply: Reply): Promise<string> {
  return reply.response ? reply.response.clone().text() : (reply.text ?? '');
}

/** The answer's JSON Schema as the document publishes it, as a validator (made once per schema). */
const published = new WeakMap<z.ZodType, z.ZodType>();
function publishedValidator(schema: z.ZodType): z.ZodType {
  let validator = published.get(schema);
  if (!validator) {
    validator = z.fromJSONSchema(jsonSchema(schema, 'output'));
    published.set(schema, validator);
  }
  return validator;
}

function bodyMismatch(schema: z.ZodType, text: string): Mismatch | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { at: '', issue: 'malformed_json' };
  }
  // The schema itself (its refinements too), then what the document says of it (no field it does not name).
  const own = schema.safeParse(body);
  const result = own.success ? publishedValidator(schema).safeParse(body) : own;
  if (result.success) return undefined;
  const [first] = result.error.issues;
  // Field names only, never values: an unexpected field's name says what leaked, its value would leak it again.
  const keys = first && 'keys' in first && Array.isArray(first.keys) ? `: ${first.keys.slice(0, 5).join(', ')}` : '';
  return { at: first?.path.join('.') ?? '', issue: `${first?.code ?? 'invalid'}${keys}` };
}
