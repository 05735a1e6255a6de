'use client';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { Locale } from './locale';
import { translatorOf, type Messages, type Translate } from './translate';

/**
 * Gives client components the locale chosen on the server and its catalog, which the root layout
 * passes in: the browser downloads only the reader's language, not both catalogs.
 */
type I18n = { locale: Locale; messages: Messages };
const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ locale, messages, children }: I18n & { children: ReactNode }) {
  const value = useMemo(() => ({ locale, messages }), [locale, messages]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('i18n hook outside <I18nProvider>');
  return i18n;
}

export function useLocale(): Locale {
  return useI18n().locale;
}

/** The reader's catalog, for code that words messages outside a component (form resolvers). */
export function useMessages(): Messages {
  return useI18n().messages;
}

export function useT(): Translate {
  const { messages } = useI18n();
  return useMemo(() => translatorOf(messages), [messages]);
}
