'use client';
import { useEffect, useRef, type ComponentProps } from 'react';
import { NOT_READY_ID } from './not-ready';
import { ReadyContext, useReady } from './use-ready';

/**
 * A form whose controls stay disabled until React has hydrated it. Console pages render their
 * forms on the server, and whatever is typed or submitted before hydration bypasses the form's
 * handlers: react-hook-form would not count the edit as unsaved, a save would send the old value,
 * and a native submit would put the fields (sign-in's password) in the URL.
 * The fieldset is `display: contents` and has no role, so the form's own layout and landmarks stay.
 * Until then the form is described by the page's "not ready yet" reason (see <Button>).
 * It stays so after hydration while the form's own code is still loading: inside a part whose
 * react-hook-form has not arrived (form-library.tsx).
 */
export function Form({ children, 'aria-describedby': describedBy, ...props }: ComponentProps<'form'>) {
  const enabled = useReady();
  const controls = useRef<HTMLFieldSetElement>(null);
  useEffect(() => {
    // The browser skipped `autofocus` on the disabled server-rendered control; honour it now,
    // unless the reader has already moved the focus somewhere.
    if (enabled && document.activeElement === document.body) controls.current?.querySelector<HTMLElement>('[autofocus]')?.focus();
  }, [enabled]);
  return (
    <form aria-busy={!enabled || undefined} aria-describedby={enabled ? describedBy : NOT_READY_ID} {...props}>
      <fieldset ref={controls} disabled={!enabled} role="none" className="contents">
        <ReadyContext value={enabled}>{children}</ReadyContext>
      </fieldset>
    </form>
  );
}
