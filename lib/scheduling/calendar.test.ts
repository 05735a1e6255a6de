import { describe, expect, it } from 'vitest';
import { addDays, brasiliaDay, clock, columnsOf, hourRange, moveFocus, openingDay, placed, stepDay, weekStart, windowOf } from './calendar';
import type { Slot } from './contract';

const slot = (id: number, agenda: number, start: string, situacao: Slot['situacao'] = 'livre', minutes = 30): Slot => ({
  NR_SEQ_AGENDA: id,
  CD_AGENDA: agenda,
  DT_AGENDA: start,
  NR_MIN_DURACAO: minutes,
  situacao,
  expiraEm: null,
});

describe('calendar days (São Paulo, UTC−03:00)', () => {
  it('opens on the soonest free slot’s São Paulo day, or today without one', () => {
    const now = Date.parse('2026-11-26T02:00:00Z'); // still the 25th in São Paulo
    expect(openingDay(undefined, now)).toBe('2026-11-25');
    expect(openingDay([], now)).toBe('2026-11-25');
    const free = { NR_SEQ_AGENDA: 1, CD_AGENDA: 1, DT_AGENDA: '2026-11-28T01:30:00.000Z', NR_MIN_DURACAO: 30 };
    expect(openingDay([free], now)).toBe('2026-11-27');
  });

  it('an instant’s day is São Paulo’s, not UTC’s', () => {
    expect(brasiliaDay(Date.parse('2026-11-25T02:30:00Z'))).toBe('2026-11-24');
    expect(brasiliaDay(Date.parse('2026-11-25T03:00:00Z'))).toBe('2026-11-25');
  });

  it('weeks start on Monday, across months and years', () => {
    expect(weekStart('2026-11-26')).toBe('2026-11-23'); // a Thursday
    expect(weekStart('2026-11-23')).toBe('2026-11-23');
    expect(weekStart('2026-11-29')).toBe('2026-11-23'); // Sunday ends the week
    expect(weekStart('2027-01-01')).toBe('2026-12-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('a view’s window covers its days whole, and previous/next move by a day or a week', () => {
    expect(windowOf('day', '2026-11-26')).toEqual({
      days: ['2026-11-26'],
      de: '2026-11-26T00:00:00-03:00',
      ate: '2026-11-26T23:59:59.999-03:00',
    });
    const week = windowOf('week', '2026-11-26');
    expect(week.days).toHaveLength(7);
    expect([week.de, week.ate]).toEqual(['2026-11-23T00:00:00-03:00', '2026-11-29T23:59:59.999-03:00']);
    expect(stepDay('day', '2026-11-26', -1)).toBe('2026-11-25');
    expect(stepDay('week', '2026-11-26', 1)).toBe('2026-12-03');
  });
});

describe('calendar grid', () => {
  const slots = [
    slot(2, 902, '2026-11-26T08:00:00-03:00', 'ocupado'),
    slot(1, 901, '2026-11-26T07:30:00-03:00'),
    slot(3, 901, '2026-11-26T08:00:00-03:00', 'reservado'),
    slot(4, 901, '2026-11-26T09:00:00-03:00'),
    slot(5, 902, '2026-11-26T10:30:00-03:00', 'livre', 60),
    slot(6, 901, '2026-11-27T07:00:00-03:00'),
    // 10:00 UTC given with another offset: still 07:00 in São Paulo.
    slot(7, 903, '2026-11-26T10:00:00Z'),
  ];

  it('places a slot by its São Paulo minute of the day, whatever the offset it is written with', () => {
    expect(placed(slots[6]!)).toMatchObject({ day: '2026-11-26', start: 7 * 60, end: 7 * 60 + 30 });
    expect(clock(7 * 60 + 30)).toBe('07:30');
  });

  it('the day view has a column per agenda with slots that day, soonest first; the week view a column per day of one agenda', () => {
    const day = columnsOf(slots, 'day', ['2026-11-26']);
    expect(day.map((column) => [column.agenda, column.slots.map((s) => s.NR_SEQ_AGENDA)])).toEqual([
      [901, [1, 3, 4]],
      [902, [2, 5]],
      [903, [7]],
    ]);
    expect(columnsOf(slots, 'day', ['2026-11-26'], 902).map((column) => column.agenda)).toEqual([902]);
    const week = columnsOf(slots, 'week', windowOf('week', '2026-11-26').days, 901);
    expect(week.map((column) => column.slots.map((s) => s.NR_SEQ_AGENDA))).toEqual([[], [], [], [1, 3, 4], [6], [], []]);
    expect(hourRange(day)).toEqual({ from: 7 * 60, to: 12 * 60 });
    expect(hourRange([])).toEqual({ from: 7 * 60, to: 19 * 60 });
  });

  it('arrow keys move between free slots only: up and down in a column, sideways to the nearest time', () => {
    const day = columnsOf(slots, 'day', ['2026-11-26']);
    expect(moveFocus(day, 1, 'ArrowDown')).toBe(4); // 3 is held: skipped
    expect(moveFocus(day, 4, 'ArrowDown')).toBe(4); // the last stays
    expect(moveFocus(day, 4, 'ArrowUp')).toBe(1);
    expect(moveFocus(day, 4, 'ArrowRight')).toBe(5); // 902's only free slot
    expect(moveFocus(day, 5, 'ArrowRight')).toBe(7);
    expect(moveFocus(day, 7, 'ArrowRight')).toBe(7);
    expect(moveFocus(day, 7, 'ArrowLeft')).toBe(5);
    expect(moveFocus(day, 1, 'ArrowLeft')).toBe(1);
    expect(moveFocus(day, 4, 'Home')).toBe(1);
    expect(moveFocus(day, 1, 'End')).toBe(4);
    // From a slot no longer free (taken meanwhile): the first free one.
    expect(moveFocus(day, 3, 'ArrowDown')).toBe(1);
  });
});
