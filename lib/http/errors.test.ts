import { describe, expect, it } from 'vitest';
import { refuse } from '@/lib/errors/refusal';
import { problemOf } from './errors';
import { problemResponse } from './problem';

describe('a refusal’s extension members (RFC 9457 §3.2)', () => {
  it('answers a full count quota as 409 with the limit beside the detail, and no Retry-After', async () => {
    const response = problemResponse(problemOf(refuse.overQuota('cota-exemplo', 'Full at 3.', { limite: 3 })));
    expect(response.status).toBe(409);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('retry-after')).toBeNull();
    expect(await response.json()).toEqual({
      type: 'urn:integration-console:problem:cota-exemplo',
      title: 'Conflict',
      status: 409,
      detail: 'Full at 3.',
      limite: 3,
    });
  });

  it('answers a rate limit as 429 with Retry-After and the limit and window as members', async () => {
    const response = problemResponse(problemOf(refuse.rateLimited('taxa-exemplo', 7, 'Slow down.', { limite: 5, janelaSegundos: 60 })));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.json()).toMatchObject({ status: 429, limite: 5, janelaSegundos: 60 });
  });

  it('never lets an extension member shadow a standard one', async () => {
    const response = problemResponse(problemOf(refuse.overQuota('cota-exemplo', 'Full.', { status: 200, type: 'x' })));
    expect(await response.json()).toMatchObject({ status: 409, type: 'urn:integration-console:problem:cota-exemplo' });
  });
});
