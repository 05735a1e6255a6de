import { describe, expect, it } from 'vitest';
import { afterFailure, isLocked, type ThrottleRule } from './throttle-policy';

const rule: ThrottleRule = { maxFailures: 3, windowMs: 60_000, lockMs: 300_000 };

describe('sign-in throttle policy', () => {
  it('locks at the limit of failures within the window, for the lock time', () => {
    let row = afterFailure(undefined, 0, rule);
    row = afterFailure(row, 10_000, rule);
    expect(isLocked(row, 10_000)).toBe(false);
    row = afterFailure(row, 20_000, rule);
    expect(row).toEqual({ failures: 3, windowStart: 0, lockedUntil: 320_000 });
    expect(isLocked(row, 319_999)).toBe(true);
    expect(isLocked(row, 320_000)).toBe(false);
  });

  it('starts counting again when the window has passed', () => {
    let row = afterFailure(undefined, 0, rule);
    row = afterFailure(row, 10_000, rule);
    row = afterFailure(row, 70_000, rule);
    expect(row).toEqual({ failures: 1, windowStart: 70_000, lockedUntil: null });
  });

  it('gives a full set of attempts after a lock runs out', () => {
    const locked = { failures: 3, windowStart: 0, lockedUntil: 30_000 };
    const after = afterFailure(locked, 40_000, { ...rule, windowMs: 600_000 });
    expect(after).toEqual({ failures: 1, windowStart: 40_000, lockedUntil: null });
  });
});
