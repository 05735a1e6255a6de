'use client';
import { useCallback, useEffect, useRef } from 'react';

/**
 * Unsaved edits are not lost silently: while `hasUnsavedEdits()` holds, closing or reloading the tab
 * asks the browser's own "leave site?" question, and `confirmDiscard` asks before an in-page action
 * throws them away.
 *
 * It takes a function read at the moment of leaving, not a rendered flag: react-hook-form publishes
 * `isDirty` only after its (asynchronous) resolver has run, so a flag would still say "clean" to a
 * click that follows the typing closely.
 */
export function useUnsavedChanges(hasUnsavedEdits: () => boolean) {
  const latest = useRef(hasUnsavedEdits);
  useEffect(() => {
    latest.current = hasUnsavedEdits;
  });
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (!latest.current()) return;
      event.preventDefault();
      // Older browsers show the dialog only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  return useCallback((question: string) => !latest.current() || window.confirm(question), []);
}
