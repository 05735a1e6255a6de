import { describe, expect, it } from 'vitest';
import { allowance, burstOf, sendSlot, type Pace } from './pacing';

/** Claims as often as `everyMs` for `seconds`, taking all that is allowed: the start times. */
function simulate(perSecond: number, everyMs: number, seconds: number): number[] {
  let pace: Pace = { perSecond, tat: null };
  const starts: number[] = [];
  for (let now = 0; now < seconds * 1000; now += everyMs) {
    const { allowed, tatAfter } = allowance(pace, now);
    for (let i = 0; i < allowed; i++) starts.push(now);
    if (allowed > 0) pace = { perSecond, tat: tatAfter(allowed) };
  }
  return starts;
}

function busiestWindow(starts: number[], windowMs: number): number {
  let best = 0;
  for (let i = 0, j = 0; i < starts.length; i++) {
    while (starts[i]! - starts[j]! >= windowMs) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

describe('pacing (GCRA)', () => {
  it('never lets more than 2 % over the limit through in any 10 s window, however often it is asked', () => {
    for (const perSecond of [1, 7, 50, 333, 1000]) {
      for (const everyMs of [1, 13, 100]) {
        const starts = simulate(perSecond, everyMs, 30);
        expect(busiestWindow(starts, 10_000)).toBeLessThanOrEqual(Math.floor(perSecond * 10 * 1.02));
      }
    }
  });

  it('reaches the limit when asked about as often as it allows, late claims catching up within the burst', () => {
    // 10 s at 50/s, plus the burst's 4 at the very start.
    expect(simulate(50, 20, 10)).toHaveLength(504);
    expect(simulate(50, 23, 10).length).toBeGreaterThanOrEqual(495);
    const { allowed, readyAt } = allowance({ perSecond: 50, tat: 1_000 }, 900);
    expect(allowed).toBe(0);
    expect(readyAt).toBe(1_000);
    expect(allowance({ perSecond: 50, tat: 1_000 }, readyAt).allowed).toBe(burstOf(50));
  });

  it('does not save up idle time beyond its burst', () => {
    expect(allowance({ perSecond: 1000, tat: 0 }, 60_000).allowed).toBe(burstOf(1000));
    expect(burstOf(50)).toBe(5);
    expect(burstOf(5)).toBe(1);
  });

  it('spaces requests that ask for their send slot together, whatever their number: at most the rate, plus the burst, in any second', () => {
    for (const perSecond of [10, 50]) {
      let tat: number | null = null;
      const sent: number[] = [];
      // 100 requests ready at once, then 20 more every 350 ms; each asks again when told to wait.
      const asking = [...Array.from({ length: 100 }, () => 0), ...Array.from({ length: 20 }, (_, i) => 1_000 + i * 350)];
      while (asking.length > 0) {
        asking.sort((a, b) => a - b);
        const now = asking.shift()!;
        const slot = sendSlot({ perSecond, tat }, now);
        if (slot.goNow) {
          sent.push(now);
          tat = slot.tat;
        } else {
          expect(slot.waitMs).toBeGreaterThan(0);
          asking.push(now + slot.waitMs);
        }
      }
      expect(sent).toHaveLength(120);
      expect(busiestWindow(sent, 1_000)).toBeLessThanOrEqual(perSecond + burstOf(perSecond) - 1);
    }
    // An idle configuration's request leaves at once.
    expect(sendSlot({ perSecond: 10, tat: 500 }, 2_000)).toEqual({ goNow: true, tat: 2_100 });
  });

  it('takes no slot ahead of time: a request that asks late leaves then, and the next one keeps the interval from it', () => {
    // Due at 1,000 but asking at 1,150 (its wait ran late): it goes, and the next slot is 1,250, not 1,100.
    expect(sendSlot({ perSecond: 10, tat: 1_000 }, 1_150)).toEqual({ goNow: true, tat: 1_250 });
    expect(sendSlot({ perSecond: 10, tat: 1_250 }, 1_160)).toEqual({ goNow: false, waitMs: 90 });
  });
});
