import type { Verdict } from './destinations/destination';
import { jittered } from './retry-policy';

/**
 * A circuit breaker per configuration (issue 18): a receiver that looks down is not attempted for a
 * while, so its deliveries wait without holding worker slots that other partners' deliveries need.
 *
 * - closed: attempts go out (at most the per-configuration cap at once);
 * - open (`openUntil` in the future): none of its deliveries is claimed; they stay `pendente`;
 * - half-open (`openUntil` passed): one attempt at a time, the probe: the oldest pending delivery,
 *   due or not (issue 45: the circuit probes on its own cadence, not its deliveries' backoff; a
 *   probe that went early and failed leaves that delivery's schedule as it was). A receiver that
 *   answers anything but an outage closes the circuit, and every delivery waiting behind it is due
 *   at once; another outage opens it again for twice as long, up to the probing cadence.
 *
 * Separate from the disable rule (retry-policy.ts): probes keep failing_since going, so a receiver
 * that stays down for WEBHOOK_DISABLE_AFTER_HOURS is still disabled.
 */
export type CircuitState = {
  /** Consecutive attempts that ended in an outage. */
  failures: number;
  /** While set: closed to attempts until then, then half-open. */
  openUntil: number | null;
  /** When the current incident first opened the circuit (for how long it has been down). */
  openedAt: number | null;
};

export type CircuitSettings = {
  /** Consecutive outage attempts that open the circuit. */
  threshold: number;
  /** How long it first stays open; doubled for each failed probe, up to maxOpenMs. */
  openMs: number;
  /** The longest between two probes after the first period (WEBHOOK_CIRCUIT_PROBE_SECONDS): the probing cadence. */
  maxOpenMs: number;
};

export const CLOSED: CircuitState = { failures: 0, openUntil: null, openedAt: null };

/**
 * Whether an attempt says the destination cannot be reached (timeout, refused or reset connection,
 * a name that does not resolve, a failed TLS handshake, a 5xx), or that no request could be made at
 * all (a stored header HTTP cannot carry, an error while sending): either way this configuration's
 * attempts only hold slots until it changes, so they open its circuit. Each destination kind says
 * which of its failures are outages (destinations/destination.ts, Verdict).
 */
export function isOutage(verdict: Verdict): boolean {
  return verdict.result === 'retry' && verdict.outage;
}

export type CircuitPhase = 'closed' | 'open' | 'half-open';

export function phaseOf(state: Pick<CircuitState, 'openUntil'>, now: number): CircuitPhase {
  if (state.openUntil === null) return 'closed';
  return state.openUntil > now ? 'open' : 'half-open';
}

/** How many of a configuration's attempts may be in flight at once, across every instance. */
export function attemptCap(state: Pick<CircuitState, 'openUntil'>, now: number, perEndpoint: number): number {
  const phase = phaseOf(state, now);
  return phase === 'closed' ? perEndpoint : phase === 'half-open' ? 1 : 0;
}

/** The circuit after an attempt that ended at `now`. */
export function afterAttempt(
  state: CircuitState,
  outage: boolean,
  now: number,
  settings: CircuitSettings,
  random: () => number = Math.random,
): CircuitState {
  if (!outage) return CLOSED;
  // An attempt that was already in flight when the circuit opened says nothing new.
  if (phaseOf(state, now) === 'open') return state;
  const failures = state.failures + 1;
  if (failures < settings.threshold) return { failures, openUntil: null, openedAt: null };
  const doublings = Math.min(failures - settings.threshold, 20);
  // The first period is the setting's whole; later ones double, up to the probing cadence.
  const openFor = doublings === 0 ? settings.openMs : Math.min(settings.openMs * 2 ** doublings, settings.maxOpenMs);
  return { failures, openUntil: now + jittered(openFor, random), openedAt: state.openedAt ?? now };
}
