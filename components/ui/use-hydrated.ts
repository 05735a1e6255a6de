'use client';
import { useSyncExternalStore } from 'react';

const neverChanges = () => () => {};

/** False in the server render and during hydration, true once React runs the component in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
}
