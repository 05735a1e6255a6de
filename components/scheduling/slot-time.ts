import type { Locale } from '@/lib/i18n';

/**
 * DT_AGENDA in the slot's own wall-clock time (the back-end's offset), not the browser's zone: a
 * 07:00 exam in São Paulo reads 07:00 wherever the operator sits.
 */
export function slotWallClock(iso: string, locale: Locale): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(iso);
  if (!match) return iso;
  const [, year, month, day, hour, minute] = match;
  return locale === 'pt-BR' ? `${day}/${month}/${year} ${hour}:${minute}` : `${year}-${month}-${day} ${hour}:${minute}`;
}

/** An audit instant in the operator's own zone. */
export function localDateTime(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(iso));
}
