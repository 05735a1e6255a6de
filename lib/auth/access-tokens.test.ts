import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetEnv } from '@/lib/testing/hooks';
import { issueAccessToken } from './access-tokens';

const client = { clientId: 'cliente-relogio', usuarioId: '11111111-1111-4111-8111-111111111111', sistemaOrigem: 3, scopes: ['webhooks'] };

/**
 * A clock whose every `new Date()` is a second later than the one before: the worst case of a second
 * ticking while a token is built (measured: 6 tokens in 10 million on an idle machine; more on a busy one).
 */
function tickingClock(startMs: number) {
  let now = startMs;
  const RealDate = Date;
  class TickingDate extends RealDate {
    constructor(...args: [] | [string | number | Date]) {
      if (args.length === 0) {
        super(now);
        now += 1000;
      } else super(args[0]);
    }
    static override now() {
      return now;
    }
  }
  vi.stubGlobal('Date', TickingDate);
}

describe('issued access tokens', () => {
  const saved = { ...process.env };
  afterEach(() => {
    vi.unstubAllGlobals();
    process.env = { ...saved };
    resetEnv();
  });

  // Verification refuses a lifetime over the setting: one second more made a token useless from the start.
  it('live exactly ACCESS_TOKEN_TTL_SECONDS, even when a second ticks while one is signed', async () => {
    process.env.AUTH_SECRET = 'a'.repeat(48);
    process.env.ACCESS_TOKEN_TTL_SECONDS = '900';
    resetEnv();
    tickingClock(Date.UTC(2026, 10, 26, 12, 0, 0, 999));
    const { token, expiresIn } = await issueAccessToken(client);
    const claims = decodeJwt(token);
    expect(expiresIn).toBe(900);
    expect(claims.exp! - claims.iat!).toBe(900);
  });
});
