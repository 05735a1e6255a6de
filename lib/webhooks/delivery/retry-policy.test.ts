import { describe, expect, it } from 'vitest';
import { verdictOf } from './destinations/http/sender';
import { decide as decideWith, jittered, RETRY_JITTER, retryAfterSeconds, type RetrySettings } from './retry-policy';

/** A receiver's answer, classified as the HTTP destination does; Retry-After in seconds. */
const answer = (status: number, retryAfter?: number) => verdictOf(status, retryAfter === undefined ? undefined : String(retryAfter));

const settings: RetrySettings = { scheduleSeconds: [5, 300, 1800], disableAfterMs: 3_600_000 };
const now = 1_800_000_000_000;
/** The schedule's exact steps (random 0.5 is the middle of the jitter); jitter has its own cases below. */
const decide = (...args: Parameters<typeof decideWith>) => decideWith(args[0], args[1], args[2], args[3], args[4], () => 0.5);

describe('webhook retry policy', () => {
  it('a 2xx delivers and clears the failing streak', () => {
    expect(decide(answer(204), 3, now - 1000, now, settings)).toEqual({
      status: 'entregue',
      nextAttemptAt: null,
      failingSince: null,
    });
  });

  it('a failure waits the schedule’s step for that attempt, then fails after the last step', () => {
    expect(decide(answer(500), 1, null, now, settings)).toEqual({
      status: 'pendente',
      nextAttemptAt: now + 5000,
      failingSince: now,
    });
    expect(decide({ result: 'retry', reason: 'tempo-esgotado', outage: true }, 3, now - 10, now, settings)).toMatchObject({
      nextAttemptAt: now + 1_800_000,
    });
    expect(decide(answer(500), 4, now - 10, now, settings)).toMatchObject({
      status: 'falhou',
      nextAttemptAt: null,
    });
  });

  it('Retry-After delays the next attempt, capped at the longest step', () => {
    expect(decide(answer(429, 60), 1, null, now, settings).nextAttemptAt).toBe(now + 60_000);
    expect(decide(answer(503, 99_999), 1, null, now, settings).nextAttemptAt).toBe(now + 1_800_000);
    expect(decide(answer(503, 1), 2, null, now, settings).nextAttemptAt).toBe(now + 300_000);
  });

  it('a permanent verdict (410 Gone) fails the delivery and disables the configuration at once', () => {
    expect(decide(answer(410), 1, null, now, settings)).toMatchObject({
      status: 'falhou',
      disable: 'receptor-410',
    });
  });

  it('failing for the whole disable window disables the configuration', () => {
    expect(decide(answer(500), 1, now - 3_600_000, now, settings)).toMatchObject({
      status: 'falhou',
      disable: 'falhas-consecutivas',
    });
    expect(decide(answer(500), 1, now - 3_599_999, now, settings).disable).toBeUndefined();
  });

  it('spreads every retry delay by ±20 %, never below a receiver’s Retry-After', () => {
    const step = 300_000;
    const bounds = { low: step * (1 - RETRY_JITTER), high: step * (1 + RETRY_JITTER) };
    expect(jittered(step, () => 0)).toBe(bounds.low);
    expect(jittered(step, () => 0.999_999_9)).toBeCloseTo(bounds.high, -1);
    const waits = Array.from({ length: 2000 }, () => decideWith(answer(500), 2, null, now, settings).nextAttemptAt! - now);
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(bounds.low);
    expect(Math.max(...waits)).toBeLessThanOrEqual(bounds.high);
    // Spread, not one value: the 2000 waits cover most of the ±20 % band.
    expect(Math.max(...waits) - Math.min(...waits)).toBeGreaterThan(0.9 * (bounds.high - bounds.low));
    const low = () => 0;
    expect(decideWith(answer(429, 300), 2, null, now, settings, low).nextAttemptAt).toBe(now + 300_000);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds(new Date(now + 30_000).toUTCString(), now)).toBe(30);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(undefined, now)).toBeUndefined();
  });
});
