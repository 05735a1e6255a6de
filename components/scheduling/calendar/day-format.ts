import type { Locale } from '@/lib/i18n';
import type { CalendarView } from '@/lib/scheduling/calendar';

/**
 * Day labels: the day is a São Paulo date already, so it is formatted as UTC midnight. Formatters
 * are made once per locale and style: making one costs far more than formatting with it.
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
export function dayFormat(locale: Locale, options: Intl.DateTimeFormatOptions) {
  const key = `${locale}|${JSON.stringify(options)}`;
  let made = dayFormats.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
    dayFormats.set(key, made);
  }
  return made;
}

export const asDate = (day: string) => new Date(`${day}T00:00:00Z`);

/** The heading of the period shown: the day in full, or the week's first and last day. */
export function periodLabel(view: CalendarView, days: readonly string[], locale: Locale): string {
  if (view === 'day') return dayFormat(locale, { dateStyle: 'full' }).format(asDate(days[0]!));
  return dayFormat(locale, { dateStyle: 'medium' }).formatRange(asDate(days[0]!), asDate(days[days.length - 1]!));
}
