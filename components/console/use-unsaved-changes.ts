'use client';
import { useCallback, useEffect } from 'react';

/**
 * Unsaved edits are not lost silently: while `dirty`, closing or reloading the tab asks the browser's
 * own "leave site?" question, and `confirmDiscard` asks before an in-page action throws them away.
 */
export function useUnsavedChanges(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the dialog only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  return useCallback((question: string) => !dirty || window.confirm(question), [dirty]);
}
