'use client';
import NextLink from 'next/link';
import { useRouter } from 'next/navigation';
import type { ComponentProps } from 'react';

/**
 * The console's link: a client-side navigation like next/link's, prefetched when the reader reaches
 * for it (the pointer over it, which a tap also fires, or the focus) instead of when it scrolls
 * into view.
 *
 * Every console page is dynamic and per user, so a viewport prefetch is a full server render of
 * the target's layout (session, role check, database) for each link on screen: the header alone
 * sent seven on every page view, and a list of configurations one per row. In the browser those
 * answers arrive and are processed while the page is still loading, competing with its own scripts
 * on a slow phone. A prefetch on intent still starts before the click lands.
 */
export function Link({ href, ...props }: Omit<ComponentProps<typeof NextLink>, 'prefetch' | 'onMouseEnter' | 'onFocus'>) {
  const router = useRouter();
  const prefetch = () => {
    if (typeof href === 'string' && href.startsWith('/')) router.prefetch(href);
  };
  return <NextLink {...props} href={href} prefetch={false} onMouseEnter={prefetch} onFocus={prefetch} />;
}
