'use client';
import '@/lib/client/zod-jitless';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { translator, type Locale, type Translate } from './index';

/** Gives client components the locale chosen on the server and a `t()` for it. */
const LocaleContext = createContext<Locale | null>(null);

export function I18nProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  return <LocaleContext.Provider value={locale}>{children}</LocaleContext.Provider>;
}

export function useLocale(): Locale {
  const locale = useContext(LocaleContext);
  if (!locale) throw new Error('useLocale() outside <I18nProvider>');
  return locale;
}

export function useT(): Translate {
  const locale = useLocale();
  return useMemo(() => translator(locale), [locale]);
}
