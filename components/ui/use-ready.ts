'use client';
import { createContext, useContext } from 'react';
import { useHydrated } from './use-hydrated';

/**
 * False inside a <Form ready={false}>: a form whose own code is still loading (enhancement.ts).
 * Outside any such form, controls are ready once hydrated.
 */
export const FormReadyContext = createContext(true);

/** Whether a control can act now: the page has hydrated and its form's code is there. */
export function useReady(): boolean {
  const hydrated = useHydrated();
  const formReady = useContext(FormReadyContext);
  return hydrated && formReady;
}
