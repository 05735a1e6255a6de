import type { Locale } from '@/lib/i18n';

/**
 * Every time in the console is São Paulo wall-clock time (the hospital's), whatever zone
 * the operator's browser is in, and is labelled as such ("horário de Brasília"). Brazil has kept
 * UTC−03:00 all year since daylight saving ended in 2019, so the filters may append a fixed offset.
 */
const BRASILIA_TIME_ZONE = 'America/Sao_Paulo';
export const BRASILIA_OFFSET = '-03:00';

/**
 * An instant as São Paulo date and time, in the locale's own format with a four-digit year: pt-BR's
 * short date is 10/03/2031; English's short one (3/10/31) reads as any of three dates, so English
 * gets the medium one (Mar 10, 2031).
 */
export function brasiliaDateTime(iso: string, locale: Locale, { seconds = false } = {}): string {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return iso;
  return formatter(locale, seconds).format(instant);
}

// Making an Intl.DateTimeFormat costs far more than formatting with one (a list of 25 reservations
// made a hundred of them per render), so each locale's two are made once.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: Locale, seconds: boolean): Intl.DateTimeFormat {
  const key = `${locale}|${seconds}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locale, {
      dateStyle: locale === 'en' ? 'medium' : 'short',
      timeStyle: seconds ? 'medium' : 'short',
      timeZone: BRASILIA_TIME_ZONE,
    });
    formatters.set(key, made);
  }
  return made;
}

/** A `datetime-local` value (`2026-05-04T07:30`, no zone) read as São Paulo time, as ISO 8601 with its offset. */
export function brasiliaInputToIso(local: string): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2})?$/.exec(local);
  if (!match) return undefined;
  return `${match[1]}${match[2] ?? ':00'}${BRASILIA_OFFSET}`;
}

/**
 * A date and time typed the Brazilian way (`28/11/2026 10:30`, the time optional: midnight), read
 * as São Paulo time, as ISO 8601 with its offset; undefined for anything else or a day that does
 * not exist (31/02). A text field, not `datetime-local`: the browser writes that one in its own
 * interface language (mm/dd/yyyy in an English Chromium), whatever the page's language.
 */
export function brasiliaTypedToIso(typed: string): string | undefined {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2}))?$/.exec(typed.trim());
  if (!match) return undefined;
  const [day, month, year, hour = 0, minute = 0] = match.slice(1).map((part) => (part === undefined ? undefined : Number(part)));
  const date = new Date(Date.UTC(year!, month! - 1, day, hour, minute));
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month! - 1 && date.getUTCDate() === day && hour < 24 && minute < 60;
  if (!real) return undefined;
  const two = (value: number) => String(value).padStart(2, '0');
  return `${year}-${two(month!)}-${two(day)}T${two(hour)}:${two(minute)}:00${BRASILIA_OFFSET}`;
}
