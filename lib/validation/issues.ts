import type { z } from 'zod';

/**
 * Turns zod issues into field errors with messages in the reader's language. Used by the API (for
 * problem+json bodies) and by the console's forms, so a field reads the same in both places.
 */

export type Locale = 'pt-BR' | 'en';
export const LOCALES: readonly Locale[] = ['pt-BR', 'en'];
export const DEFAULT_LOCALE: Locale = 'pt-BR';

export type FieldError = {
  /** Dotted path of the field, e.g. `headers.0.chave`; empty for the body as a whole. */
  field: string;
  /** RFC 6901 JSON Pointer into the request body. */
  pointer: string;
  code: string;
  message: string;
};

type Texts = {
  required: string;
  expectedType: (expected: string) => string;
  tooSmallString: (min: number) => string;
  tooBigString: (max: number) => string;
  tooSmallNumber: (min: number, inclusive: boolean) => string;
  tooBigNumber: (max: number, inclusive: boolean) => string;
  tooSmallArray: (min: number) => string;
  tooBigArray: (max: number) => string;
  oneOf: (values: string) => string;
  unknownField: string;
  invalidFormat: (format: string) => string;
  invalid: string;
  custom: Record<string, string>;
};

const typeNames: Record<Locale, Record<string, string>> = {
  'pt-BR': {
    number: 'um número inteiro',
    int: 'um número inteiro',
    string: 'um texto',
    boolean: 'verdadeiro ou falso',
    array: 'uma lista',
    object: 'um objeto',
  },
  en: { number: 'an integer', int: 'an integer', string: 'a string', boolean: 'true or false', array: 'an array', object: 'an object' },
};

const texts: Record<Locale, Texts> = {
  'pt-BR': {
    required: 'Campo obrigatório.',
    expectedType: (expected) => `Deve ser ${typeNames['pt-BR'][expected] ?? expected}.`,
    tooSmallString: (min) => (min <= 1 ? 'Não pode ficar vazio.' : `Deve ter pelo menos ${min} caracteres.`),
    tooBigString: (max) => `Deve ter no máximo ${max} caracteres.`,
    tooSmallNumber: (min, inclusive) => (inclusive ? `Deve ser maior ou igual a ${min}.` : `Deve ser maior que ${min}.`),
    tooBigNumber: (max, inclusive) => (inclusive ? `Deve ser menor ou igual a ${max}.` : `Deve ser menor que ${max}.`),
    tooSmallArray: (min) => `Deve ter pelo menos ${min} itens.`,
    tooBigArray: (max) => `Deve ter no máximo ${max} itens.`,
    oneOf: (values) => `Valor não permitido. Use ${values}.`,
    unknownField: 'Campo desconhecido: não faz parte do contrato.',
    invalidFormat: (format) => `Formato inválido (${format}).`,
    invalid: 'Valor inválido.',
    custom: {
      noSurroundingSpaces: 'Não pode começar nem terminar com espaços.',
      tokenRequiredForRelease: 'Obrigatório quando ieOpcao = CR (informe o TOKEN_RESERVA_P da reserva).',
      tokenOnlyForRelease: 'Envie tokenReservaCanc somente quando ieOpcao = CR.',
      sideRequired: 'Este exame exige lateralidade: informe E, D ou A.',
      integer: 'Deve ser um número inteiro.',
      uuid: 'Deve ser um UUID, como 3f2a9c1e-5b7d-4e8f-a1b2-c3d4e5f6a7b8.',
      unknownProcedure: 'Procedimento interno não encontrado no sistema de agendamento.',
    },
  },
  en: {
    required: 'Required field.',
    expectedType: (expected) => `Must be ${typeNames.en[expected] ?? expected}.`,
    tooSmallString: (min) => (min <= 1 ? 'Must not be empty.' : `Must have at least ${min} characters.`),
    tooBigString: (max) => `Must have at most ${max} characters.`,
    tooSmallNumber: (min, inclusive) => (inclusive ? `Must be at least ${min}.` : `Must be greater than ${min}.`),
    tooBigNumber: (max, inclusive) => (inclusive ? `Must be at most ${max}.` : `Must be less than ${max}.`),
    tooSmallArray: (min) => `Must have at least ${min} items.`,
    tooBigArray: (max) => `Must have at most ${max} items.`,
    oneOf: (values) => `Value not allowed. Use ${values}.`,
    unknownField: 'Unknown field: not part of the contract.',
    invalidFormat: (format) => `Invalid format (${format}).`,
    invalid: 'Invalid value.',
    custom: {
      noSurroundingSpaces: 'Must not start or end with spaces.',
      tokenRequiredForRelease: 'Required when ieOpcao = CR (send the reservation’s TOKEN_RESERVA_P).',
      tokenOnlyForRelease: 'Send tokenReservaCanc only when ieOpcao = CR.',
      sideRequired: 'This exam requires laterality: send E, D or A.',
      integer: 'Must be an integer.',
      uuid: 'Must be a UUID, such as 3f2a9c1e-5b7d-4e8f-a1b2-c3d4e5f6a7b8.',
      unknownProcedure: 'Internal procedure not found in the scheduling system.',
    },
  },
};

/** Extra message keys that feature code (URL and header policies) registers for its own checks. */
const extraMessages: Record<Locale, Record<string, string>> = { 'pt-BR': {}, en: {} };

export function registerIssueMessages(messages: Record<Locale, Record<string, string>>): void {
  for (const locale of LOCALES) Object.assign(extraMessages[locale], messages[locale]);
}

export function describeIssue(issue: z.core.$ZodIssue, locale: Locale, value?: unknown): string {
  const t = texts[locale];
  switch (issue.code) {
    case 'invalid_type':
      return value === undefined ? t.required : t.expectedType(issue.expected);
    case 'too_small':
      if (issue.origin === 'string') return t.tooSmallString(Number(issue.minimum));
      if (issue.origin === 'array') return t.tooSmallArray(Number(issue.minimum));
      return t.tooSmallNumber(Number(issue.minimum), issue.inclusive ?? true);
    case 'too_big':
      if (issue.origin === 'string') return t.tooBigString(Number(issue.maximum));
      if (issue.origin === 'array') return t.tooBigArray(Number(issue.maximum));
      return t.tooBigNumber(Number(issue.maximum), issue.inclusive ?? true);
    case 'invalid_value':
      return t.oneOf(issue.values.map((v) => JSON.stringify(v)).join(', '));
    case 'unrecognized_keys':
      return t.unknownField;
    case 'invalid_format':
      return t.invalidFormat(issue.format);
    case 'not_multiple_of':
      return t.custom.integer ?? t.invalid;
    case 'custom': {
      const key = typeof issue.params?.key === 'string' ? issue.params.key : undefined;
      return (key && (t.custom[key] ?? extraMessages[locale][key])) || t.invalid;
    }
    default:
      return t.invalid;
  }
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
export function toFieldErrors(error: z.ZodError, input: unknown, locale: Locale): FieldError[] {
  const result: FieldError[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        result.push({ field: path.join('.'), pointer: toPointer(path), code: 'unrecognized_key', message: describeIssue(issue, locale) });
      }
      continue;
    }
    const code = issue.code === 'custom' && typeof issue.params?.key === 'string' ? issue.params.key : issue.code;
    result.push({
      field: issue.path.map(String).join('.'),
      pointer: toPointer(issue.path),
      code,
      message: describeIssue(issue, locale, valueAt(input, issue.path)),
    });
  }
  return result;
}

/** Picks pt-BR or English from an Accept-Language header; pt-BR unless English is preferred. */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale {
  if (!acceptLanguage) return DEFAULT_LOCALE;
  const ranked = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag, q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    if (tag.startsWith('pt')) return 'pt-BR';
    if (tag.startsWith('en')) return 'en';
  }
  return DEFAULT_LOCALE;
}

/** The message of a custom check by its key, for checks made outside a schema (e.g. in a service). */
export function customMessage(key: string, locale: Locale): string {
  return texts[locale].custom[key] ?? extraMessages[locale][key] ?? texts[locale].invalid;
}
