'use client';
import { useT } from '@/lib/i18n/client';
import type { Slot } from '@/lib/scheduling/contract';

/** Free: a solid outline; held: a dashed amber border and a clock; taken: a hatched grey and a cross. */
export const STATE_CLASSES = {
  livre: 'border border-indigo-400 bg-white text-indigo-900',
  reservado: 'border border-dashed border-amber-600 bg-amber-50 text-amber-950',
  ocupado:
    'border border-slate-300 bg-[repeating-linear-gradient(135deg,var(--color-slate-100)_0_5px,var(--color-slate-200)_5px_7px)] text-slate-700',
} as const;

/** A state's icon besides its colour: none for free, a clock for held, a cross for taken. */
export function StateIcon({ state }: { state: Slot['situacao'] }) {
  if (state === 'livre') return null;
  return (
    <svg aria-hidden viewBox="0 0 12 12" className="h-3 w-3 shrink-0" fill="none" stroke="currentColor" strokeWidth="1.5">
      {state === 'reservado' ? (
        <>
          <circle cx="6" cy="6" r="4.75" />
          <path d="M6 3.5V6l1.75 1.25" strokeLinecap="round" />
        </>
      ) : (
        <path d="M3 3l6 6M9 3l-6 6" strokeLinecap="round" />
      )}
    </svg>
  );
}

/** What each state looks like, in words. */
export function Legend() {
  const t = useT();
  return (
    <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-700" aria-label={t('calendar.legend')}>
      {(['livre', 'reservado', 'ocupado'] as const).map((state) => (
        <li key={state} className="flex items-center gap-1.5">
          <span aria-hidden className={`inline-flex h-4 w-5 items-center justify-center rounded ${STATE_CLASSES[state]}`}>
            <StateIcon state={state} />
          </span>
          {t(`calendar.legend.${state}`)}
        </li>
      ))}
    </ul>
  );
}
