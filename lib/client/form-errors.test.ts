import { describe, expect, it } from 'vitest';
import { webhookUpdateSchema } from '@/lib/webhooks/configurations/contract';
import { slotReservationSchema } from '@/lib/scheduling/contract';
import { EMPTY_RESERVATION_FORM, toReservationBody } from '@/lib/scheduling/reservation-form-values';
import { parseOrThrow } from '@/lib/http/route';
import { ApiError } from '@/lib/http/errors';
import type { Locale } from '@/lib/i18n/locale';
import { z } from 'zod';
import { contractResolver, fieldErrorsToTree, withFieldChecks } from './form-errors';
import { messagesFor } from '@/lib/i18n';

/** The messages the route wrapper puts in a 400 for this input, by field. */
function apiMessages(schema: Parameters<typeof parseOrThrow>[0], input: unknown, locale: Locale): Record<string, string> {
  try {
    parseOrThrow(schema, input, locale);
  } catch (error) {
    if (error instanceof ApiError) return Object.fromEntries((error.extra.errors ?? []).map((e) => [e.field, e.message]));
    throw error;
  }
  return {};
}

describe('fieldErrorsToTree', () => {
  it('nests dotted paths the way react-hook-form reads them, arrays included', () => {
    const tree = fieldErrorsToTree([
      { field: 'url', pointer: '#/url', code: 'too_small', message: 'Não pode ficar vazio.' },
      { field: 'headers.1.chave', pointer: '#/headers/1/chave', code: 'too_small', message: 'Não pode ficar vazio.' },
      { field: 'headers.1.chave', pointer: '#/headers/1/chave', code: 'too_big', message: 'second' },
      { field: '', pointer: '', code: 'malformed_json', message: 'JSON inválido.' },
    ]);
    expect(tree.url).toEqual({ type: 'too_small', message: 'Não pode ficar vazio.' });
    expect(Array.isArray(tree.headers)).toBe(true);
    expect((tree.headers as unknown[])[1]).toEqual({ chave: { type: 'too_small', message: 'Não pode ficar vazio.' } });
    expect(tree.root).toEqual({ type: 'malformed_json', message: 'JSON inválido.' });
  });
});

describe('contractResolver', () => {
  it('gives the form the same words the API gives for the same input', async () => {
    const values = { url: '', headers: [{ chave: '', valor: 'x' }] };
    for (const locale of ['pt-BR', 'en'] as const) {
      const result = await contractResolver(webhookUpdateSchema, messagesFor(locale))(values);
      const api = apiMessages(webhookUpdateSchema, values, locale);
      const errors = result.errors as { url?: { message: string }; headers?: { chave?: { message: string } }[] };
      expect(errors.url?.message).toBe(api.url);
      expect(errors.headers?.[0]?.chave?.message).toBe(api['headers.0.chave']);
      expect(api.url).toBeTruthy();
    }
  });

  it('validates the reservation form as the body it will send', async () => {
    const resolve = contractResolver(slotReservationSchema, messagesFor('pt-BR'), toReservationBody);
    const result = await resolve({ ...EMPTY_RESERVATION_FORM, ieOpcao: 'CR', nrSeqAgenda: '12.5', nmUsuario: ' x' });
    expect(result.errors).toMatchObject({
      nrSeqAgenda: { message: 'Deve ser um número inteiro.' },
      nmUsuario: { message: 'Não pode começar nem terminar com espaços.' },
      cdConvenio: { message: 'Campo obrigatório.' },
    });
    const valid = {
      ...EMPTY_RESERVATION_FORM,
      nrSeqAgenda: '920001',
      nrSeqProcInterno: '70001',
      nrMinDuracao: '30',
      cdPessoaFisica: '1',
      cdConvenio: '0',
      cdCategoria: '1',
      cdPlano: '3',
      cdUsuarioConvenio: '001',
      tokenReservaCanc: 'left over from CR',
    };
    expect((await resolve(valid)).errors).toEqual({});
    // The CR rule is checked once the fields themselves are valid, as the API does.
    expect((await resolve({ ...valid, ieOpcao: 'CR', tokenReservaCanc: '' })).errors).toEqual({
      tokenReservaCanc: {
        type: 'tokenRequiredForRelease',
        message: 'Obrigatório quando ieOpcao = CR (informe o TOKEN_RESERVA_P da reserva).',
      },
    });
  });
});

describe('withFieldChecks', () => {
  type Values = { a: unknown; b?: string };
  const schemaResolver = contractResolver<z.ZodType, Values>(z.object({ a: z.number() }), messagesFor('pt-BR'));
  const sideCheck = (values: Values) => (values.b === '' ? [{ field: 'b', pointer: '#/b', code: 'sideRequired', message: 'falta b' }] : []);

  it('adds the extra errors to a valid schema result, and to the schema’s own errors', async () => {
    const resolver = withFieldChecks(schemaResolver, sideCheck);
    expect(await resolver({ a: 1 })).toEqual({ values: { a: 1 }, errors: {} });
    expect((await resolver({ a: 1, b: '' })).errors).toEqual({ b: { type: 'sideRequired', message: 'falta b' } });
    const both = await resolver({ a: 'x', b: '' });
    expect(Object.keys(both.errors).sort()).toEqual(['a', 'b']);
  });
});
