import { describe, expect, it } from 'vitest';
import { addDays } from '@/lib/scheduling/calendar';
import { asDate, formatDay, periodLabel, type DayStyle } from './day-format';

/** What each style stands for, as Intl.DateTimeFormat options (the calendar used these before). */
const INTL: Record<'pt-BR' | 'en', Record<DayStyle, Intl.DateTimeFormatOptions>> = {
  'pt-BR': {
    full: { dateStyle: 'full' },
    weekday: { weekday: 'short' },
    dayMonth: { day: '2-digit', month: '2-digit' },
    date: { dateStyle: 'short' },
    weekdayDayMonth: { weekday: 'short', day: '2-digit', month: '2-digit' },
  },
  en: {
    full: { dateStyle: 'full' },
    weekday: { weekday: 'short' },
    dayMonth: { month: 'short', day: 'numeric' },
    date: { dateStyle: 'medium' },
    weekdayDayMonth: { weekday: 'short', day: '2-digit', month: '2-digit' },
  },
};

describe('formatDay', () => {
  it.each(['pt-BR', 'en'] as const)('writes every day of two years as Intl.DateTimeFormat does (%s)', (locale) => {
    for (const [style, options] of Object.entries(INTL[locale]) as [DayStyle, Intl.DateTimeFormatOptions][]) {
      const intl = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
      for (let day = '2026-01-01'; day < '2028-01-01'; day = addDays(day, 1)) {
        expect(formatDay(day, style, locale), `${style} ${day}`).toBe(intl.format(asDate(day)));
      }
    }
  });

  it('heads a day with the day in full, a week with its range', () => {
    expect(periodLabel('day', ['2026-11-26'], 'pt-BR')).toBe('quinta-feira, 26 de novembro de 2026');
    expect(periodLabel('week', ['2026-11-23', '2026-11-29'], 'en')).toBe(
      new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).formatRange(asDate('2026-11-23'), asDate('2026-11-29')),
    );
  });
});
