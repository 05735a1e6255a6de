'use client';
import { startTransition, Suspense, useEffect, useState, type ReactNode } from 'react';

/**
 * Children rendered in the browser only, after the page has hydrated, with `fallback` until then
 * (also in the server's HTML) and while they load: for parts of a page loaded with React.lazy after
 * its first load. Lighter than next/dynamic with `ssr: false`, whose loader would itself add to the
 * page's first-load JavaScript. They are mounted in a transition, which React renders in slices
 * between the browser's other work instead of one long task.
 */
export function AfterHydration({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => startTransition(() => setMounted(true)), []);
  return mounted ? <Suspense fallback={fallback}>{children}</Suspense> : fallback;
}
