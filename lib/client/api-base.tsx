'use client';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useLocale } from '@/lib/i18n/client';
import { API_BASES, type ApiBase, type ApiCaller } from './api';

/**
 * The page's API base, set once by its surface's layout: the portal's layout says /portal/api, and
 * every other page (the console, the one-time link pages) calls /api, the default. Browser code
 * asks here instead of reading the address bar, so a component both surfaces show calls the API of
 * the one it is on, and the expired-session redirect is that surface's (lib/client/api.ts).
 */
const ApiBaseContext = createContext<ApiBase>(API_BASES.console);

export function ApiBaseProvider({ base, children }: { base: ApiBase; children: ReactNode }) {
  return <ApiBaseContext.Provider value={base}>{children}</ApiBaseContext.Provider>;
}

/** The caller apiFetch and apiJson take: the reader's language and this page's API base. */
export function useApiCaller(): ApiCaller {
  const locale = useLocale();
  const base = useContext(ApiBaseContext);
  return useMemo(() => ({ locale, base }), [locale, base]);
}
