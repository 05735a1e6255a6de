import type { DeliveryStatus } from './contract';
import type { Verdict } from './destinations/destination';

/**
 * What an attempt's verdict (its destination's classification) means for its delivery and
 * configuration (issue 10 §3), as a pure function: delivered; failed at once when permanent (a 410
 * Gone also disables the configuration); otherwise the next attempt after the schedule's step for
 * this attempt (at least the receiver's Retry-After, at most the schedule's longest step), or failed
 * after the last step. Attempts that have all failed for the disable window disable it too.
 */
export type RetrySettings = { scheduleSeconds: readonly number[]; disableAfterMs: number };

/**
 * Every retry delay is spread by ±20 %, so the deliveries that failed together during a receiver's
 * outage do not all come due in the same second when it is back.
 */
export const RETRY_JITTER = 0.2;

/** `ms` spread by ±`spread` (0.2: ±20 %); `random` in [0, 1), 0.5 leaves it as it is. */
export function jittered(ms: number, random: () => number = Math.random, spread = RETRY_JITTER): number {
  return Math.round(ms * (1 + spread * (2 * random() - 1)));
}

export type Decision = {
  status: DeliveryStatus;
  nextAttemptAt: number | null;
  disable?: 'receptor-410' | 'falhas-consecutivas';
  failingSince: number | null;
};

export function decide(
  verdict: Verdict,
  attemptNo: number,
  failingSince: number | null,
  now: number,
  settings: RetrySettings,
  random: () => number = Math.random,
): Decision {
  if (verdict.result === 'delivered') return { status: 'entregue', nextAttemptAt: null, failingSince: null };
  const since = failingSince ?? now;
  if (verdict.result === 'permanent') {
    return { status: 'falhou', nextAttemptAt: null, failingSince: since, ...(verdict.disable ? { disable: verdict.disable } : {}) };
  }
  const disable = now - since >= settings.disableAfterMs ? ('falhas-consecutivas' as const) : undefined;
  const step = settings.scheduleSeconds[attemptNo - 1];
  if (step === undefined || disable) return { status: 'falhou', nextAttemptAt: null, disable, failingSince: since };
  // A receiver's Retry-After is honoured (up to the schedule's longest step) and is not jittered below.
  const longest = Math.max(...settings.scheduleSeconds);
  const retryAfterMs = Math.min(verdict.retryAfterSeconds ?? 0, Math.max(longest, step)) * 1000;
  const waitMs = Math.max(jittered(step * 1000, random), Math.round(retryAfterMs));
  return { status: 'pendente', nextAttemptAt: now + waitMs, failingSince: since };
}

/** Retry-After as seconds (RFC 9110 §10.2.3: delay-seconds or an HTTP date); undefined if absent or unreadable. */
export function retryAfterSeconds(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
