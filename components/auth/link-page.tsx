import type { ReactNode } from 'react';
import { EntryCard, EntryFrame } from './entry-frame';

/**
 * The frame of a page a one-time link opens with no session (setting a password, confirming a
 * technical contact): one small card with its title, intro and form.
 */
export function LinkPage({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <EntryFrame>
      <EntryCard title={title} intro={intro} className="w-full max-w-sm">
        {children}
      </EntryCard>
    </EntryFrame>
  );
}
