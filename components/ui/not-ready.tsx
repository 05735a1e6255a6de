import type { ReactNode } from 'react';

/** The id of the page's "not ready yet" reason, which controls name in aria-describedby until hydration. */
export const NOT_READY_ID = 'page-not-ready';

/**
 * Why a control is disabled while the page is still loading its scripts (see <Button>): rendered
 * once per page by the root layout, hidden, and read by screen readers as those controls'
 * description (aria-describedby may point at hidden text).
 */
export function NotReadyReason({ children }: { children: ReactNode }) {
  return (
    <p id={NOT_READY_ID} hidden>
      {children}
    </p>
  );
}
