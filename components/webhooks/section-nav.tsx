'use client';
import { useEffect, useMemo, useState } from 'react';
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

  // An address with a section's hash: to it, once it has rendered (the lower sections load after
  // hydration); the scroll that follows marks it current.
  useEffect(() => {
    const wanted = sections.find((section) => `#${section.id}` === window.location.hash)?.id;
    if (!wanted) return;
    const reach = () => {
      const element = document.getElementById(wanted);
      if (!element) return false;
      element.scrollIntoView({ block: 'start' });
      return true;
    };
    if (reach()) return;
    const watcher = new MutationObserver(() => {
      if (reach()) watcher.disconnect();
    });
    watcher.observe(document.body, { childList: true, subtree: true });
    return () => watcher.disconnect();
    // Once, for the address the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The section in view: the last one whose top has passed the nav.
  useEffect(() => {
    const onScroll = () => {
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
      className="sticky top-0 z-20 -mx-4 border-b border-slate-200 bg-white/95 px-4 py-2 backdrop-blur sm:mx-0 sm:rounded-lg sm:border"
    >
      <ul className="flex gap-1 overflow-x-auto">
        {sections.map((section) => (
          <li key={section.id} className="shrink-0">
            <a
              href={`#${section.id}`}
              onClick={() => setCurrent(section.id)}
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
