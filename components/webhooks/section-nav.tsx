'use client';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { cn } from '@/components/ui/cn';
import { useT } from '@/lib/i18n/client';
import { EDITOR_SECTIONS, type EditorSectionId } from './editor-sections';

type Section = (typeof EDITOR_SECTIONS)[number];

/**
 * The configuration page's sections, to jump between (like an App Portal's overview, testing and
 * advanced tabs, but one page, so nothing the reader typed is left behind in another tab). The URL's
 * hash follows the section in view, so a reload or a shared link comes back to it; the sections
 * below the form load after it, so an address naming one of them is scrolled to once it is there.
 */
export function SectionNav({ consolePartner }: { consolePartner: boolean }) {
  const t = useT();
  const sections = useMemo(() => EDITOR_SECTIONS.filter((section: Section) => !('only' in section) || consolePartner), [consolePartner]);
  const [current, setCurrent] = useState<EditorSectionId>(sections[0]!.id);
  // The section jumped to: it stays current while it is in view, even where the page ends before
  // its top can reach the navigation (the last sections of a short page).
  const chosen = useRef<EditorSectionId | undefined>(undefined);

  // A section's address: to it, once it has rendered (the lower sections load after hydration, and
  // a jump asked for before then would find nothing); the scroll that follows marks it current.
  const waiting = useRef<MutationObserver | undefined>(undefined);
  const jumpTo = useCallback((id: EditorSectionId) => {
    chosen.current = id;
    waiting.current?.disconnect();
    const reach = () => {
      const element = document.getElementById(id);
      element?.scrollIntoView({ block: 'start' });
      return element !== null;
    };
    if (reach()) return;
    const watcher = new MutationObserver(() => {
      if (reach()) watcher.disconnect();
    });
    watcher.observe(document.body, { childList: true, subtree: true });
    waiting.current = watcher;
  }, []);

  // The address the page was opened with.
  useEffect(() => {
    const wanted = sections.find((section) => `#${section.id}` === window.location.hash)?.id;
    if (wanted) jumpTo(wanted);
    return () => waiting.current?.disconnect();
    // Once, for the address the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The section in view: the last one whose top has passed the nav.
  useEffect(() => {
    const onScroll = () => {
      const pinned = chosen.current && document.getElementById(chosen.current)?.getBoundingClientRect();
      if (pinned && pinned.top < window.innerHeight && pinned.bottom > 0) return setCurrent(chosen.current!);
      chosen.current = undefined;
      let inView: EditorSectionId | undefined;
      for (const section of sections) {
        const element = document.getElementById(section.id);
        if (element && element.getBoundingClientRect().top <= 96) inView = section.id;
      }
      const next = inView ?? sections[0]!.id;
      setCurrent((previous) => {
        if (previous !== next && window.location.hash !== `#${next}`)
          window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}#${next}`);
        return next;
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [sections]);

  return (
    <nav
      aria-label={t('webhook.sections')}
      className="sticky top-0 z-20 -mx-4 mb-4 border-b border-slate-200 bg-white/95 px-4 py-2 backdrop-blur sm:mx-0 sm:rounded-lg sm:border"
    >
      <ul className="flex gap-1 overflow-x-auto">
        {sections.map((section) => (
          <li key={section.id} className="shrink-0">
            <a
              href={`#${section.id}`}
              onClick={(event) => {
                event.preventDefault();
                window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}#${section.id}`);
                setCurrent(section.id);
                jumpTo(section.id);
              }}
              aria-current={current === section.id ? 'location' : undefined}
              className={cn(
                'inline-flex h-9 items-center rounded-md px-3 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
                current === section.id ? 'bg-indigo-50 text-indigo-800' : 'text-slate-700 hover:bg-slate-100',
              )}
            >
              {t(section.label)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
