import type { ReactNode } from 'react';
import { cn } from './cn';
import type { Tone } from './alert';

const tones: Record<Tone, string> = {
  info: 'bg-sky-100 text-sky-900 ring-sky-300',
  success: 'bg-emerald-100 text-emerald-900 ring-emerald-300',
  warning: 'bg-amber-100 text-amber-900 ring-amber-300',
  danger: 'bg-red-100 text-red-900 ring-red-300',
  neutral: 'bg-slate-100 text-slate-700 ring-slate-300',
};

export function Badge({ tone = 'neutral', children, className }: { tone?: Tone; children: ReactNode; className?: string }) {
  return (
    <span className={cn('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', tones[tone], className)}>
      {children}
    </span>
  );
}
