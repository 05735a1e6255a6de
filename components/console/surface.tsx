'use client';
import { createContext, useContext, type ReactNode } from 'react';

/**
 * Where the webhook components are shown: the staff console, or the partner portal (issue 30),
 * which reuses them with its own links and, for a read-only session, without their write controls.
 * The API calls are the same operations either way, at the API base the surface's layout sets (lib/client/api-base.tsx).
 */
export type Surface = { kind: 'console'; home: '/webhooks'; readOnly: false } | { kind: 'portal'; home: '/portal'; readOnly: boolean };

const CONSOLE: Surface = { kind: 'console', home: '/webhooks', readOnly: false };
const SurfaceContext = createContext<Surface>(CONSOLE);

export function PortalSurface({ readOnly, children }: { readOnly: boolean; children: ReactNode }) {
  return <SurfaceContext.Provider value={{ kind: 'portal', home: '/portal', readOnly }}>{children}</SurfaceContext.Provider>;
}

export function useSurface(): Surface {
  return useContext(SurfaceContext);
}

/** A configuration's page on this surface. */
export function configHref(surface: Surface, id: string): string {
  return surface.kind === 'portal' ? `/portal/webhooks/${id}` : `/webhooks/${id}`;
}
