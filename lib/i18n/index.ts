// Both catalogs: a client component importing this would ship them to every browser (client.tsx
// and locale.ts are the client's modules).
import 'server-only';
import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, LOCALES, type Locale } from './locale';
import { en } from './messages/en';
import { ptBR, type MessageKey, type Messages } from './messages/pt-BR';
import { translatorOf, type Translate } from './translate';

/**
 * The console's own small message catalog: one flat object per locale, `{name}` placeholders.
 * Server code only: it holds both catalogs. Client components get the reader's one through
 * <I18nProvider> (client.tsx), which the root layout fills with messagesFor(locale).
 */
export type { Locale, MessageKey, Messages };
export { DEFAULT_LOCALE, LOCALES, LOCALE_COOKIE, isLocale };
export { format, translatorOf, type Translate, type TranslateValues } from './translate';

const catalogs: Record<Locale, Messages> = { 'pt-BR': ptBR, en };

export function messagesFor(locale: Locale): Messages {
  return catalogs[locale];
}

export function translator(locale: Locale): Translate {
  return translatorOf(messagesFor(locale));
}
