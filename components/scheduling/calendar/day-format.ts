import type { Locale } from '@/lib/i18n';
import { perLocale } from '@/lib/i18n/per-locale';
import type { CalendarView } from '@/lib/scheduling/calendar';

/**
 * The calendar's day labels. The day is a São Paulo date already (`YYYY-MM-DD`), so it is written
 * from its parts, never through a time zone.
 *
 * They are written without Intl: the first Intl formatter a page makes loads the browser's locale
 * data, about 35 ms in one task on a desktop CPU and over 200 ms on a phone-class one, and the
 * calendar mounts during the reservation page's load. These are the two languages' CLDR forms as
 * Intl.DateTimeFormat writes them; day-format.test.ts holds every label of two years against it.
 * Only the week's range keeps Intl (formatRange), made once the reader asks for a week.
 */
const PT_WEEKDAYS = ['domingo', 'segunda-feira', 'terça-feira', 'quarta-feira', 'quinta-feira', 'sexta-feira', 'sábado'];
const PT_SHORT_WEEKDAYS = ['dom.', 'seg.', 'ter.', 'qua.', 'qui.', 'sex.', 'sáb.'];
const PT_MONTHS = [
  'janeiro',
  'fevereiro',
  'março',
  'abril',
  'maio',
  'junho',
  'julho',
  'agosto',
  'setembro',
  'outubro',
  'novembro',
  'dezembro',
];
const EN_WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const EN_SHORT_WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const EN_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const EN_SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * - `full`: the day in full (quinta-feira, 26 de novembro de 2026 · Thursday, November 26, 2026);
 * - `weekday`: qui. · Thu;
 * - `dayMonth`: 26/11 · Nov 26 (English short dates, 11/26, read as several days);
 * - `date`: 26/11/2026 · Nov 26, 2026;
 * - `weekdayDayMonth`: qui., 26/11 · Thu, 11/26.
 */
export type DayStyle = 'full' | 'weekday' | 'dayMonth' | 'date' | 'weekdayDayMonth';

/** A day's parts: month 0–11, weekday 0 (Sunday)–6, and the day and month as two digits. */
type DayParts = { year: number; month: number; date: number; weekday: number; dd: string; mm: string };

const STYLES: Record<Locale, Record<DayStyle, (day: DayParts) => string>> = {
  'pt-BR': {
    full: (d) => `${PT_WEEKDAYS[d.weekday]}, ${d.date} de ${PT_MONTHS[d.month]} de ${d.year}`,
    weekday: (d) => PT_SHORT_WEEKDAYS[d.weekday]!,
    dayMonth: (d) => `${d.dd}/${d.mm}`,
    date: (d) => `${d.dd}/${d.mm}/${d.year}`,
    weekdayDayMonth: (d) => `${PT_SHORT_WEEKDAYS[d.weekday]}, ${d.dd}/${d.mm}`,
  },
  en: {
    full: (d) => `${EN_WEEKDAYS[d.weekday]}, ${EN_MONTHS[d.month]} ${d.date}, ${d.year}`,
    weekday: (d) => EN_SHORT_WEEKDAYS[d.weekday]!,
    dayMonth: (d) => `${EN_SHORT_MONTHS[d.month]} ${d.date}`,
    date: (d) => `${EN_SHORT_MONTHS[d.month]} ${d.date}, ${d.year}`,
    weekdayDayMonth: (d) => `${EN_SHORT_WEEKDAYS[d.weekday]}, ${d.mm}/${d.dd}`,
  },
};

export function formatDay(day: string, style: DayStyle, locale: Locale): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(year, month - 1, date)).getUTCDay();
  const parts = { year, month: month - 1, date, weekday, dd: String(date).padStart(2, '0'), mm: String(month).padStart(2, '0') };
  return STYLES[locale][style](parts);
}

export const asDate = (day: string) => new Date(`${day}T00:00:00Z`);

/** The week's range formatter, made on the first week shown. */
const rangeFormat = perLocale((locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }));

/** The heading of the period shown: the day in full, or the week's first and last day. */
export function periodLabel(view: CalendarView, days: readonly string[], locale: Locale): string {
  if (view === 'day') return formatDay(days[0]!, 'full', locale);
  return rangeFormat(locale).formatRange(asDate(days[0]!), asDate(days[days.length - 1]!));
}
