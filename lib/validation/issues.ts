import type { z } from 'zod';
import { hasMessage, translatorOf, type Messages, type Translate, type TranslateValues } from '@/lib/i18n/translate';

/**
 * Turns zod issues into field errors with messages in the reader's language, all from the one
 * message catalogue (lib/i18n/messages). Used by the API (for problem+json bodies) and by the
 * console's forms, so a field reads the same in both places. They take the reader's catalog, not a
 * locale: the browser holds only that one (lib/i18n/client.tsx).
 */

export type FieldError = {
  /** Dotted path of the field, e.g. `headers.0.chave`; empty for the body as a whole. */
  field: string;
  /** RFC 6901 JSON Pointer into the request body. */
  pointer: string;
  code: string;
  message: string;
};

/** Message values a custom check carries beside its key (e.g. `max` for a size limit). */
function valuesOf(params: Record<string, unknown> | undefined): TranslateValues {
  const values: TranslateValues = {};
  for (const [name, value] of Object.entries(params ?? {}))
    if (typeof value === 'string' || typeof value === 'number') values[name] = value;
  return values;
}

export function describeIssue(issue: z.core.$ZodIssue, messages: Messages, value?: unknown): string {
  const t = translatorOf(messages);
  switch (issue.code) {
    case 'invalid_type':
      return value === undefined ? t('validation.required') : t('validation.expectedType', { type: typeName(t, messages, issue.expected) });
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? t('validation.notEmpty') : t('validation.tooSmallString', { min });
      if (issue.origin === 'array') return t('validation.tooSmallArray', { min });
      return (issue.inclusive ?? true) ? t('validation.atLeast', { min }) : t('validation.greaterThan', { min });
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return t('validation.tooBigString', { max });
      if (issue.origin === 'array') return t('validation.tooBigArray', { max });
      return (issue.inclusive ?? true) ? t('validation.atMost', { max }) : t('validation.lessThan', { max });
    }
    case 'invalid_value':
      return t('validation.oneOf', { values: issue.values.map((v) => JSON.stringify(v)).join(', ') });
    case 'unrecognized_keys':
      return t('validation.unknownField');
    case 'invalid_format':
      return t('validation.invalidFormat', { format: issue.format });
    case 'not_multiple_of':
      return t('validation.code.integer');
    case 'custom': {
      const key = typeof issue.params?.key === 'string' ? issue.params.key : undefined;
      return key ? customMessage(key, messages, valuesOf(issue.params)) : t('validation.invalid');
    }
    default:
      return t('validation.invalid');
  }
}

function typeName(t: Translate, messages: Messages, expected: string): string {
  const key = `validation.type.${expected}`;
  return hasMessage(messages, key) ? t(key) : expected;
}

function toPointer(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '' : '#/' + path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Field errors for a failed parse; unknown keys become one error each, named by the key. */
export function toFieldErrors(error: z.ZodError, input: unknown, messages: Messages): FieldError[] {
  const result: FieldError[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        result.push({ field: path.join('.'), pointer: toPointer(path), code: 'unrecognized_key', message: describeIssue(issue, messages) });
      }
      continue;
    }
    const code = issue.code === 'custom' && typeof issue.params?.key === 'string' ? issue.params.key : issue.code;
    result.push({
      field: issue.path.map(String).join('.'),
      pointer: toPointer(issue.path),
      code,
      message: describeIssue(issue, messages, valueAt(input, issue.path)),
    });
  }
  return result;
}

/** The message of a custom check by its code, for checks made in a schema or outside one (e.g. in a service). */
export function customMessage(code: string, messages: Messages, values: TranslateValues = {}): string {
  const t = translatorOf(messages);
  // A domain code (validation.code.*), or one of zod's own (validation.required…) a domain check reuses.
  const key = [`validation.code.${code}`, `validation.${code}`].find((candidate) => hasMessage(messages, candidate));
  return key ? t(key, values) : t('validation.invalid');
}
