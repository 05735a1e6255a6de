import { perLocale } from './per-locale';

/**
 * A number written the reader's way: 1.234 in pt-BR, 1,234 in English.
 *
 * The first Intl formatter a page makes loads the browser's locale data, about 35 ms in one task on
 * a desktop CPU and over 200 ms on a phone-class one, inside the page's load. A whole number below
 * 1,000 is written as its digits in both languages, so the counts the console shows on load (a
 * message's plural, the delivery figures) need no formatter; numbers.test.ts holds that against Intl.
 */
export function formatNumber(value: number, locale: string): string {
  if (Number.isInteger(value) && (value > 0 || Object.is(value, 0)) && value < 1000) return String(value);
  return numberFormat(locale).format(value);
}

const numberFormat = perLocale((locale) => new Intl.NumberFormat(locale));
