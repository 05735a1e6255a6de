import type { Locale } from '@/lib/i18n';
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
const NAMES: Record<Locale, { weekdays: string[]; shortWeekdays: string[]; months: string[]; shortMonths: string[] }> = {
  'pt-BR': {
    weekdays: ['domingo', 'segunda-feira', 'terça-feira', 'quarta-feira', 'quinta-feira', 'sexta-feira', 'sábado'],
    shortWeekdays: ['dom.', 'seg.', 'ter.', 'qua.', 'qui.', 'sex.', 'sáb.'],
    months: ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'],
    shortMonths: [],
  },
  en: {
    weekdays: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
    shortWeekdays: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
    months: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
    shortMonths: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  },
};

/**
 * - `full`: the day in full (quinta-feira, 26 de novembro de 2026 · Thursday, November 26, 2026);
 * - `weekday`: qui. · Thu;
 * - `dayMonth`: 26/11 · Nov 26 (English short dates, 11/26, read as several days);
 * - `date`: 26/11/2026 · Nov 26, 2026;
 * - `weekdayDayMonth`: qui., 26/11 · Thu, 11/26.
 */
export type DayStyle = 'full' | 'weekday' | 'dayMonth' | 'date' | 'weekdayDayMonth';

export function formatDay(day: string, style: DayStyle, locale: Locale): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const names = NAMES[locale];
  const weekday = asDate(day).getUTCDay();
  const dd = String(date).padStart(2, '0');
  const mm = String(month).padStart(2, '0');
  if (locale === 'pt-BR') {
    switch (style) {
      case 'full':
        return `${names.weekdays[weekday]}, ${date} de ${names.months[month - 1]} de ${year}`;
      case 'weekday':
        return names.shortWeekdays[weekday]!;
      case 'dayMonth':
        return `${dd}/${mm}`;
      case 'date':
        return `${dd}/${mm}/${year}`;
      case 'weekdayDayMonth':
        return `${names.shortWeekdays[weekday]}, ${dd}/${mm}`;
    }
  }
  switch (style) {
    case 'full':
      return `${names.weekdays[weekday]}, ${names.months[month - 1]} ${date}, ${year}`;
    case 'weekday':
      return names.shortWeekdays[weekday]!;
    case 'dayMonth':
      return `${names.shortMonths[month - 1]} ${date}`;
    case 'date':
      return `${names.shortMonths[month - 1]} ${date}, ${year}`;
    case 'weekdayDayMonth':
      return `${names.shortWeekdays[weekday]}, ${mm}/${dd}`;
  }
}

export const asDate = (day: string) => new Date(`${day}T00:00:00Z`);

/** The week's range formatter, made once per locale, on the first week shown. */
const rangeFormats = new Map<Locale, Intl.DateTimeFormat>();
function rangeFormat(locale: Locale): Intl.DateTimeFormat {
  let made = rangeFormats.get(locale);
  if (!made) rangeFormats.set(locale, (made = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' })));
  return made;
}

/** The heading of the period shown: the day in full, or the week's first and last day. */
export function periodLabel(view: CalendarView, days: readonly string[], locale: Locale): string {
  if (view === 'day') return formatDay(days[0]!, 'full', locale);
  return rangeFormat(locale).formatRange(asDate(days[0]!), asDate(days[days.length - 1]!));
}
