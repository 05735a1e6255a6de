import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { negotiateLocale } from '@/lib/i18n/locale';
import { toFieldErrors } from './issues';
import { messagesFor } from '@/lib/i18n';

describe('toFieldErrors', () => {
  const schema = z.strictObject({ n: z.number().int(), list: z.array(z.strictObject({ chave: z.string().max(3) })) });

  it('names nested fields with a path and a JSON pointer, in the reader’s language', () => {
    const input = { n: 'x', list: [{ chave: 'long' }], extra: 1 };
    const result = schema.safeParse(input);
    if (result.success) throw new Error('expected failure');
    expect(toFieldErrors(result.error, input, messagesFor('pt-BR'))).toEqual([
      { field: 'n', pointer: '#/n', code: 'invalid_type', message: 'Deve ser um número inteiro.' },
      { field: 'list.0.chave', pointer: '#/list/0/chave', code: 'too_big', message: 'Deve ter no máximo 3 caracteres.' },
      { field: 'extra', pointer: '#/extra', code: 'unrecognized_key', message: 'Campo desconhecido: não faz parte do contrato.' },
    ]);
    expect(toFieldErrors(result.error, input, messagesFor('en'))[0]?.message).toBe('Must be an integer.');
  });

  it('says "required" for a missing field and "must be" for a wrong type', () => {
    const result = schema.safeParse({ list: [] });
    if (result.success) throw new Error('expected failure');
    expect(toFieldErrors(result.error, { list: [] }, messagesFor('en'))[0]?.message).toBe('Required field.');
  });
});

describe('negotiateLocale', () => {
  it.each([
    [null, 'pt-BR'],
    ['en-US,en;q=0.9', 'en'],
    ['pt-BR,pt;q=0.9,en;q=0.8', 'pt-BR'],
    ['fr-FR, en;q=0.5', 'en'],
    ['en;q=0, pt;q=0.1', 'pt-BR'],
    ['de', 'pt-BR'],
  ])('%s → %s', (header, locale) => {
    expect(negotiateLocale(header)).toBe(locale);
  });
});
