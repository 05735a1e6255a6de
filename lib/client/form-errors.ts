import type { FieldError } from '@/lib/validation/issues';
import type { Messages } from '@/lib/i18n/translate';
import type { z } from 'zod';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiProblem } from './api';
import { loadClientSchema } from './load-schema';

/**
 * Zod and server field errors in react-hook-form's shape. The client validates with the route's own
 * schema and words each message with describeIssue (via toFieldErrors), so a field reads the same
 * whether the browser or the API found the problem.
 */
export type FormErrorTree = Record<string, unknown>;

/** Sets `{ message, type }` at a dotted path such as `headers.0.chave`; arrays stay arrays. */
export function fieldErrorsToTree(errors: readonly FieldError[]): FormErrorTree {
  const tree: FormErrorTree = {};
  for (const error of errors) {
    const path = error.field === '' ? ['root'] : error.field.split('.');
    let node: Record<string, unknown> = tree;
    path.forEach((segment, index) => {
      if (index === path.length - 1) {
        // The first message for a field wins: it is the one the schema checks first.
        if (!(segment in node)) node[segment] = { type: error.code, message: error.message };
        return;
      }
      const nextIsIndex = /^\d+$/.test(path[index + 1] ?? '');
      node[segment] ??= nextIsIndex ? [] : {};
      node = node[segment] as Record<string, unknown>;
    });
  }
  return tree;
}

type ResolverResult<T> = { values: T; errors: Record<string, never> } | { values: Record<string, never>; errors: FormErrorTree };

/**
 * A react-hook-form resolver around a contract schema, or a function loading it (`() =>
 * import('…/contract').then((m) => m.schema)`). `toInput` turns the form's values into the request
 * body (e.g. number inputs' text into numbers), so what is validated is what will be sent.
 */
export function contractResolver<S extends z.ZodType, V>(
  schema: S | (() => Promise<S>),
  messages: Messages,
  toInput: (values: V) => unknown = (v) => v,
) {
  // A loader keeps zod and the schemas out of the page's first load: they arrive with the first
  // check, and so do the words for their issues.
  let loaded: Promise<S> | undefined;
  let wording: Promise<typeof import('@/lib/validation/issues')> | undefined;
  return async (values: V): Promise<ResolverResult<V>> => {
    loaded ??= typeof schema === 'function' ? loadClientSchema(schema) : Promise.resolve(schema);
    wording ??= import('@/lib/validation/issues');
    const input = toInput(values);
    const result = (await loaded).safeParse(input);
    if (result.success) return { values, errors: {} };
    const { toFieldErrors } = await wording;
    return { values: {}, errors: fieldErrorsToTree(toFieldErrors(result.error, input, messages)) };
  };
}

/**
 * A resolver with checks the schema cannot make (they need data such as the exam listing). Their
 * errors join the schema's; where both name a field, the schema's message is kept.
 */
export function withFieldChecks<V>(resolver: (values: V) => Promise<ResolverResult<V>>, check: (values: V) => readonly FieldError[]) {
  return async (values: V): Promise<ResolverResult<V>> => {
    const result = await resolver(values);
    const extra = check(values);
    if (extra.length === 0) return result;
    return { values: {}, errors: { ...fieldErrorsToTree(extra), ...result.errors } };
  };
}

/**
 * The server's field errors onto a react-hook-form form, each at its field (`headers.0.chave`), the
 * body's own at `root.server`; with `focus`, the first one takes the focus.
 */
export function setServerFieldErrors<T extends FieldValues>(
  errors: readonly FieldError[],
  setError: UseFormSetError<T>,
  { focus = false }: { focus?: boolean } = {},
): void {
  for (const error of errors) {
    setError((error.field || 'root.server') as Path<T>, { type: 'server', message: error.message }, { shouldFocus: focus });
  }
}

/** A 400: the form shows its field errors (showRefusedFields), so it needs no message of its own. */
export function isFieldRefusal(error: unknown): error is ApiProblem {
  return error instanceof ApiProblem && error.status === 400;
}

/** A 400 answer's field errors onto the form (setServerFieldErrors); answers whether `error` was one. */
export function showRefusedFields<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  options?: { focus?: boolean },
): boolean {
  if (!isFieldRefusal(error)) return false;
  setServerFieldErrors(error.problem.errors ?? [], setError, options);
  return true;
}
