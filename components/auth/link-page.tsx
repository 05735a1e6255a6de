import type { ReactNode } from 'react';
import { LanguageSwitch } from '@/components/console/language-switch';

/**
 * The frame of a page a one-time link opens with no session (setting a password, confirming a
 * technical contact): the language switch, then one small card with its title, intro and form.
 */
export function LinkPage({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <div className="flex justify-end px-4 py-3 sm:px-6">
        <LanguageSwitch />
      </div>
      <main id="main" className="flex flex-1 items-start justify-center px-4 pt-8 pb-16 sm:pt-16">
        <div className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="text-xl font-semibold">{title}</h1>
          <p className="mt-1 mb-5 text-sm text-slate-600">{intro}</p>
          {children}
        </div>
      </main>
    </div>
  );
}
