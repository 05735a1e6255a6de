import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answer } from '@/lib/http/answers';
import { refuse } from '@/lib/errors/refusal';
import { HoldQuotaExceeded } from '@/lib/scheduling/hold-quota';
import { slotReservationResponseSchema } from '@/lib/scheduling/contract';
import { INTERNAL_ERROR_MESSAGE, UNAVAILABLE_MESSAGE } from '@/lib/scheduling/service';
import { publicRoute } from './route';
import { toResponse } from './reply';

/**
 * One error path (issue 28): the hold quota, a failed back-end, a refused token are refusals like
 * any other, answered by the wrapper from one table: a problem, or the body a contract fixes.
 * Through the real wrapper, with an operation made up to declare each answer.
 */
const refusing = {
  method: 'POST',
  path: '/api/teste',
  capability: 'public',
  responses: {
    200: answer.json(z.strictObject({}), 'Never.'),
    401: answer.problem('Refused token.'),
    429: answer.problem('Quota.'),
    500: answer.json(slotReservationResponseSchema, 'CODIGO_P 9.', { orProblem: true }),
  },
} as const;

async function answerTo(refusal: Error, language = 'pt-BR') {
  const route = publicRoute(refusing, () => Promise.reject(refusal), 'recusar');
  return toResponse(
    await route(new Request('http://localhost/api/teste', { method: 'POST', headers: { 'accept-language': language } }), {}),
  );
}

describe('the hold quota', () => {
  it('is a 429 problem with Retry-After, its detail in the caller’s language', async () => {
    const pt = await answerTo(new HoldQuotaExceeded(3, 1_800));
    expect(pt.status).toBe(429);
    expect(pt.headers.get('content-type')).toBe('application/problem+json');
    expect(pt.headers.get('retry-after')).toBe('1800');
    expect(await pt.json()).toEqual({
      type: 'urn:integration-console:problem:too-many-requests',
      title: 'Too Many Requests',
      status: 429,
      detail: expect.stringMatching(/^Este cliente já mantém 3 reservas ativas/),
    });
    const en = await answerTo(new HoldQuotaExceeded(3), 'en');
    expect(en.headers.get('retry-after')).toBe('60');
    expect(await en.json()).toMatchObject({ detail: expect.stringMatching(/^This client already holds 3 active reservations/) });
  });
});

describe('a failed back-end', () => {
  const codigo9 = { IE_RESERVADO_P: 'N', TOKEN_RESERVA_P: '', CODIGO_P: '9', MENSAGEM_P: UNAVAILABLE_MESSAGE };

  it('answers the contract’s own body (§7.2, CODIGO_P 9) with 500 and Retry-After, not a problem', async () => {
    const response = await answerTo(refuse.backendFailed('The back-end failed.', { body: codigo9, retryAfterSeconds: 7 }));
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.json()).toEqual(codigo9);
  });

  it('without Retry-After when a retry could book twice', async () => {
    const uncertain = { ...codigo9, MENSAGEM_P: INTERNAL_ERROR_MESSAGE };
    const response = await answerTo(refuse.backendFailed('The back-end failed.', { body: uncertain }));
    expect(response.headers.get('retry-after')).toBeNull();
    expect(await response.json()).toEqual(uncertain);
  });

  it('is a 500 problem where no contract fixes a body', async () => {
    const response = await answerTo(refuse.backendFailed('The back-end failed.'));
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ type: 'urn:integration-console:problem:backend-failed', status: 500 });
  });
});

describe('a refused credential', () => {
  it('is a 401 problem with the Bearer challenge, naming invalid_token when a token was refused', async () => {
    const missing = await answerTo(refuse.unauthenticated());
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="integration-api"');
    expect(await missing.json()).toMatchObject({ type: 'urn:integration-console:problem:unauthorized' });
    const invalid = await answerTo(refuse.invalidToken());
    expect(invalid.headers.get('www-authenticate')).toBe('Bearer realm="integration-api", error="invalid_token"');
    expect(await invalid.json()).toMatchObject({
      type: 'urn:integration-console:problem:invalid-token',
      detail: 'The access token is invalid or expired.',
    });
  });
});
