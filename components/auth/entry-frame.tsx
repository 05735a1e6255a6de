import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';
import { LanguageSwitch } from '@/components/console/language-switch';

/**
 * The frame of a page reached with no session (staff sign-in, the portal's entry, the pages a
 * one-time link opens): the language switch on top, then the page's column, centred.
 */
export function EntryFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <div className="flex justify-end px-4 py-3 sm:px-6">
        <LanguageSwitch />
      </div>
      <main id="main" className="flex flex-1 items-start justify-center px-4 pt-8 pb-16 sm:pt-16">
        {children}
      </main>
    </div>
  );
}

/** Such a page's card: its title, the line that says what it is for, and its form. */
export function EntryCard({
  title,
  intro,
  className,
  children,
}: {
  title: string;
  intro?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('rounded-lg border border-slate-200 bg-white p-6 shadow-sm', className)}>
      <h1 className="text-xl font-semibold">{title}</h1>
      {intro ? <p className="mt-1 mb-5 text-sm text-slate-600">{intro}</p> : null}
      {children}
    </div>
  );
}
