'use client';
import { createContext, useContext } from 'react';
import { useHydrated } from './use-hydrated';

/**
 * False around controls whose code is still loading after hydration: a form's react-hook-form
 * (form-library.tsx). Outside any such part, controls are ready once hydrated.
 */
export const ReadyContext = createContext(true);

/** Whether a control can act now: the page has hydrated and the code it needs is there. */
export function useReady(): boolean {
  const hydrated = useHydrated();
  const ready = useContext(ReadyContext);
  return hydrated && ready;
}
