import { describe, expect, it } from 'vitest';
import { fairShares, type Candidate } from './fair-share';

const none = { configs: new Map<string, number>(), tenants: new Map<string, number>() };
const candidates = (tenant: string, count: number): Candidate[] =>
  Array.from({ length: count }, (_, index) => ({ configId: `${tenant}${index}`, tenant }));
const byTenant = (shares: Map<string, number>) => {
  const totals: Record<string, number> = {};
  for (const [configId, share] of shares) totals[configId[0]!] = (totals[configId[0]!] ?? 0) + share;
  return totals;
};

describe('fair shares', () => {
  it('gives every tenant a turn before any tenant a second, however many configurations it has', () => {
    const shares = fairShares([...candidates('h', 300), ...candidates('b', 1)], none, { limit: 2, perTenant: 8, capOf: () => 4 });
    expect(byTenant(shares)).toEqual({ h: 1, b: 1 });
  });

  it('holds a tenant to its free room, counting its attempts in flight', () => {
    const inFlight = {
      configs: new Map([
        ['h0', 4],
        ['h1', 3],
      ]),
      tenants: new Map([['h', 7]]),
    };
    const shares = fairShares([...candidates('h', 300), ...candidates('b', 1)], inFlight, { limit: 16, perTenant: 8, capOf: () => 4 });
    expect(byTenant(shares)).toEqual({ h: 1, b: 4 });
    expect(shares.get('h0')).toBeUndefined();
  });

  it('serves the least busy tenant first, then in the candidates’ order', () => {
    const inFlight = { configs: new Map([['a0', 2]]), tenants: new Map([['a', 2]]) };
    const shares = fairShares([...candidates('a', 3), ...candidates('b', 1), ...candidates('c', 1)], inFlight, {
      limit: 2,
      perTenant: 8,
      capOf: () => 4,
    });
    expect([...shares.keys()]).toEqual(['b0', 'c0']);
  });

  it('spreads a tenant’s slots over its configurations in turn, each within its own cap', () => {
    const shares = fairShares(candidates('a', 3), none, { limit: 10, perTenant: 10, capOf: (id) => (id === 'a2' ? 1 : 4) });
    expect(Object.fromEntries(shares)).toEqual({ a0: 4, a1: 4, a2: 1 });
  });

  it('gives nothing to a configuration whose circuit is open, and one probe to a half-open one', () => {
    const capOf = (id: string) => ({ a0: 0, a1: 1 })[id] ?? 4;
    const shares = fairShares(candidates('a', 3), none, { limit: 10, perTenant: 10, capOf });
    expect(Object.fromEntries(shares)).toEqual({ a1: 1, a2: 4 });
  });

  it('hands out no more than the limit, and nothing without candidates', () => {
    expect([...fairShares(candidates('a', 50), none, { limit: 5, perTenant: 100, capOf: () => 4 }).values()].reduce((a, b) => a + b)).toBe(
      5,
    );
    expect(fairShares([], none, { limit: 5, perTenant: 100, capOf: () => 4 }).size).toBe(0);
  });
});
