import { DEFAULT_LOCALE, LOCALES, type Locale } from './locale';
import { en } from './messages/en';
import { ptBR, type MessageKey, type Messages } from './messages/pt-BR';

/**
 * The console's own small message catalog: one flat object per locale, `{name}` placeholders.
 * Shared by server components (lib/i18n/server.ts) and client components (lib/i18n/client.tsx).
 */
export type { Locale, MessageKey, Messages };
export { DEFAULT_LOCALE, LOCALES };

export const LOCALE_COOKIE = 'locale';

const catalogs: Record<Locale, Messages> = { 'pt-BR': ptBR, en };

export function messagesFor(locale: Locale): Messages {
  return catalogs[locale];
}

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(ptBR, key);
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export type TranslateValues = Record<string, string | number>;
export type Translate = (key: MessageKey, values?: TranslateValues) => string;

/** Fills `{name}` placeholders; an unknown placeholder stays visible so a missing value is noticed. */
export function format(template: string, values: TranslateValues = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

export function translator(locale: Locale): Translate {
  const messages = messagesFor(locale);
  return (key, values) => format(messages[key], values);
}
