'use client';
import { Suspense, type ReactNode } from 'react';
import { useHydrated } from './use-hydrated';

/**
 * Children rendered in the browser only, once the page has hydrated, with `fallback` until then
 * (also in the server's HTML) and while they load: for parts of a page loaded with React.lazy after
 * its first load. Lighter than next/dynamic with `ssr: false`, whose loader would itself add to the
 * page's first-load JavaScript.
 */
export function AfterHydration({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  const hydrated = useHydrated();
  return hydrated ? <Suspense fallback={fallback}>{children}</Suspense> : fallback;
}
