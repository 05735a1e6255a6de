'use client';
import { useEffect, useRef, type ComponentProps } from 'react';
import { NOT_READY_ID } from './not-ready';
import { useHydrated } from './use-hydrated';

/**
 * A form whose controls stay disabled until React has hydrated it. Console pages render their
 * forms on the server, and whatever is typed or submitted before hydration bypasses the form's
 * handlers: react-hook-form would not count the edit as unsaved, a save would send the old value,
 * and a native submit would put the fields (sign-in's password) in the URL.
 * The fieldset is `display: contents` and has no role, so the form's own layout and landmarks stay.
 * Until then the form is described by the page's "not ready yet" reason (see <Button>).
 */
export function Form({ children, 'aria-describedby': describedBy, ...props }: ComponentProps<'form'>) {
  const hydrated = useHydrated();
  const controls = useRef<HTMLFieldSetElement>(null);
  useEffect(() => {
    // The browser skipped `autofocus` on the disabled server-rendered control; honour it now,
    // unless the reader has already moved the focus somewhere.
    if (hydrated && document.activeElement === document.body) controls.current?.querySelector<HTMLElement>('[autofocus]')?.focus();
  }, [hydrated]);
  return (
    <form aria-busy={!hydrated || undefined} aria-describedby={hydrated ? describedBy : NOT_READY_ID} {...props}>
      <fieldset ref={controls} disabled={!hydrated} role="none" className="contents">
        {children}
      </fieldset>
    </form>
  );
}
