'use client';
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { cn } from './cn';
import type { Tone } from './alert';

/** Short confirmations ("saved") announced politely to screen readers and gone after a few seconds. */
type Toast = { id: number; tone: Tone; message: string };

const ToastContext = createContext<((message: string, tone?: Tone) => void) | null>(null);

const TOAST_MS = 5000;

export function ToastProvider({ children, closeLabel }: { children: ReactNode; closeLabel: string }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((toast) => toast.id !== id)), []);
  const show = useCallback(
    (message: string, tone: Tone = 'success') => {
      const id = Date.now() + Math.random();
      setToasts((all) => [...all, { id, tone, message }]);
      setTimeout(() => dismiss(id), TOAST_MS);
    },
    [dismiss],
  );
  return (
    <ToastContext.Provider value={show}>
      {children}
      {/* Top on phones, where a bottom toast would cover the result panel and its copy button; on wider
          screens above a page's sticky action bar (the editor's Cancel and Save), never over it. */}
      <div
        aria-live="polite"
        className="pointer-events-none fixed inset-x-0 top-2 z-50 flex flex-col items-center gap-2 px-4 sm:top-auto sm:bottom-24 sm:items-end"
      >
        {toasts.map((toast) => (
          <div
            key={toast.id}
            role="status"
            className={cn(
              'pointer-events-auto flex max-w-sm items-center gap-3 rounded-md px-4 py-3 text-sm font-medium text-white shadow-lg',
              toast.tone === 'danger' ? 'bg-red-700' : 'bg-slate-900',
            )}
          >
            <span>{toast.message}</span>
            <button
              type="button"
              onClick={() => dismiss(toast.id)}
              className="rounded px-1 text-white/80 hover:text-white focus-visible:outline-2 focus-visible:outline-white"
              aria-label={closeLabel}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast() {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast() outside <ToastProvider>');
  return show;
}
