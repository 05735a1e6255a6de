import { describe, expect, it } from 'vitest';
import { matches, nextInLine, positionAt, type LineEntry } from './line';

const entry = (id: string, usuarioId: string, position: number, extra: Partial<LineEntry> = {}): LineEntry => ({
  id,
  usuarioId,
  agendas: null,
  windowFrom: 0,
  windowTo: Date.parse('2030-01-01T00:00:00Z'),
  position,
  ...extra,
});

describe('the waitlist line', () => {
  const slot = { CD_AGENDA: 7, DT_AGENDA: '2029-05-04T09:00:00-03:00' };
  const now = Date.parse('2029-05-01T00:00:00Z');

  it('matches a slot of an accepted agenda inside the window only', () => {
    expect(matches(entry('a', 't1', 1), slot, now)).toBe(true);
    expect(matches(entry('a', 't1', 1, { agendas: [7, 8] }), slot, now)).toBe(true);
    expect(matches(entry('a', 't1', 1, { agendas: [8] }), slot, now)).toBe(false);
    expect(matches(entry('a', 't1', 1, { windowFrom: Date.parse('2029-05-05T00:00:00Z') }), slot, now)).toBe(false);
    expect(matches(entry('a', 't1', 1, { windowTo: Date.parse('2029-05-04T11:59:00Z') }), slot, now)).toBe(false);
    expect(matches(entry('a', 't1', 1), slot, Date.parse('2029-05-04T12:00:00Z'))).toBe(false);
  });

  it('gives the first slot to the first entry in line', () => {
    expect(nextInLine([entry('b', 't1', 2), entry('a', 't1', 1)], new Map())?.id).toBe('a');
  });

  it('takes turns between tenants: the tenant least recently offered goes first, whatever its place', () => {
    const line = [entry('a1', 'a', 1), entry('a2', 'a', 2), entry('a3', 'a', 3), entry('b1', 'b', 4)];
    expect(nextInLine(line, new Map())?.id).toBe('a1');
    expect(nextInLine(line, new Map([['a', 100]]))?.id).toBe('b1');
    expect(
      nextInLine(
        line,
        new Map([
          ['a', 100],
          ['b', 200],
        ]),
      )?.id,
    ).toBe('a1');
  });

  it('places a moved entry between its new neighbours', () => {
    expect(positionAt([10, 20, 30], 1)).toBeLessThan(10);
    expect(positionAt([10, 20, 30], 2)).toBe(15);
    expect(positionAt([10, 20, 30], 9)).toBeGreaterThan(30);
  });
});
