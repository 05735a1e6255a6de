import { describe, expect, it } from 'vitest';
import { afterAttempt, attemptCap, CLOSED, isOutage, phaseOf, type CircuitSettings, type CircuitState } from './circuit';

const settings: CircuitSettings = { threshold: 3, openMs: 10_000, maxOpenMs: 60_000 };
const now = 1_800_000_000_000;
const exact = () => 0.5;

function fail(state: CircuitState, at: number): CircuitState {
  return afterAttempt(state, true, at, settings, exact);
}

describe('webhook circuit breaker', () => {
  it('counts what the destination calls an outage, and nothing else', () => {
    expect(isOutage({ result: 'retry', reason: 'tempo-esgotado', outage: true })).toBe(true);
    expect(isOutage({ result: 'retry', reason: 'status-http', outage: false })).toBe(false);
    expect(isOutage({ result: 'permanent', reason: 'status-http', disable: 'receptor-410' })).toBe(false);
    expect(isOutage({ result: 'delivered' })).toBe(false);
  });

  it('opens after `threshold` consecutive outages, and any answer in between starts the count again', () => {
    let state = fail(fail(CLOSED, now), now + 1);
    expect(state).toEqual({ failures: 2, openUntil: null, openedAt: null });
    expect(afterAttempt(state, false, now + 2, settings)).toEqual(CLOSED);
    state = fail(state, now + 2);
    expect(state).toEqual({ failures: 3, openUntil: now + 2 + 10_000, openedAt: now + 2 });
    expect(phaseOf(state, now + 3)).toBe('open');
    expect(attemptCap(state, now + 3, 4)).toBe(0);
  });

  it('lets one probe through once the period is over; a failed probe reopens it for twice as long, up to the maximum', () => {
    let state = fail(fail(fail(CLOSED, now), now), now);
    const probeAt = state.openUntil!;
    expect(phaseOf(state, probeAt)).toBe('half-open');
    expect(attemptCap(state, probeAt, 4)).toBe(1);
    state = fail(state, probeAt);
    expect(state).toEqual({ failures: 4, openUntil: probeAt + 20_000, openedAt: now });
    const third = fail(state, state.openUntil!);
    expect(third.openUntil! - state.openUntil!).toBe(40_000);
    // 80 s would be next: the maximum, 60 s, holds from here on.
    const capped = fail(third, third.openUntil!);
    expect(capped.openUntil! - third.openUntil!).toBe(60_000);
    expect(fail(capped, capped.openUntil!).openUntil! - capped.openUntil!).toBe(60_000);
    expect(capped.openedAt).toBe(now);
  });

  it('probes on its own cadence: a cadence shorter than the first period caps every later one, not the first', () => {
    const cadence: CircuitSettings = { threshold: 1, openMs: 30_000, maxOpenMs: 10_000 };
    const fails = (state: CircuitState, at: number) => afterAttempt(state, true, at, cadence, () => 0.5);
    const opened = fails(CLOSED, now);
    expect(opened.openUntil! - now).toBe(30_000);
    const probed = fails(opened, opened.openUntil!);
    expect(probed.openUntil! - opened.openUntil!).toBe(10_000);
    expect(fails(probed, probed.openUntil!).openUntil! - probed.openUntil!).toBe(10_000);
  });

  it('a successful probe closes it; attempts already in flight when it opened change nothing', () => {
    const open = fail(fail(fail(CLOSED, now), now), now);
    expect(fail(open, now + 5)).toEqual(open);
    expect(afterAttempt(open, false, open.openUntil!, settings)).toEqual(CLOSED);
    expect(attemptCap(CLOSED, now, 4)).toBe(4);
  });

  it('spreads the open period by ±20 %', () => {
    const periods = Array.from({ length: 500 }, () => {
      const state = afterAttempt({ failures: 2, openUntil: null, openedAt: null }, true, now, settings);
      return state.openUntil! - now;
    });
    expect(Math.min(...periods)).toBeGreaterThanOrEqual(8_000);
    expect(Math.max(...periods)).toBeLessThanOrEqual(12_000);
    expect(new Set(periods).size).toBeGreaterThan(100);
  });
});
