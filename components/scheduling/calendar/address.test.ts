import { describe, expect, it } from 'vitest';
import { calendarSearch, readCalendarAddress } from './address';

const read = (query: string) => {
  const params = new URLSearchParams(query);
  return readCalendarAddress((name) => params.get(name));
};

describe('the calendar’s place in the address', () => {
  it('reads the day, the view and the agenda', () => {
    expect(read('dia=2026-11-26&vista=semana&agenda=938')).toEqual({ day: '2026-11-26', view: 'week', agenda: 938 });
    expect(read('dia=2026-11-26&vista=dia')).toEqual({ day: '2026-11-26', view: 'day', agenda: undefined });
  });

  it('reads what is not valid as absent: the calendar opens as with no address', () => {
    for (const query of ['dia=2026-02-30', 'dia=26/11/2026', 'dia=0001-01-01', 'dia=', 'vista=mes', 'agenda=-1', 'agenda=9a', ''])
      expect(read(query)).toMatchObject({ view: 'day', ...(query.startsWith('dia') ? { day: undefined } : {}) });
    expect(read('vista=mes&agenda=abc')).toEqual({ day: undefined, view: 'day', agenda: undefined });
  });

  it('writes the place, keeping the address’s other parameters and dropping an agenda no longer chosen', () => {
    const current = new URLSearchParams('outro=1&agenda=938');
    expect(calendarSearch(current, { day: '2026-11-27', view: 'week', agenda: 900 })).toBe(
      '?outro=1&agenda=900&dia=2026-11-27&vista=semana',
    );
    expect(calendarSearch(current, { day: '2026-11-27', view: 'day' })).toBe('?outro=1&dia=2026-11-27&vista=dia');
  });

  it('reads back what it writes', () => {
    const address = { day: '2027-01-04', view: 'week', agenda: 12 } as const;
    expect(read(calendarSearch(new URLSearchParams(), address).slice(1))).toEqual(address);
  });
});
