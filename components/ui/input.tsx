import type { InputHTMLAttributes, Ref, SelectHTMLAttributes } from 'react';
import { cn } from './cn';

const control =
  'h-10 w-full min-w-0 rounded-md border bg-white px-3 text-sm text-slate-900 placeholder:text-slate-400 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600 disabled:bg-slate-100 disabled:text-slate-500';

function border(invalid: boolean | undefined) {
  return invalid ? 'border-red-500' : 'border-slate-300';
}

export function Input({
  invalid,
  className,
  ref,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { invalid?: boolean; ref?: Ref<HTMLInputElement> }) {
  return <input ref={ref} aria-invalid={invalid || undefined} className={cn(control, border(invalid), className)} {...props} />;
}

export function Select({
  invalid,
  className,
  ref,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { invalid?: boolean; ref?: Ref<HTMLSelectElement> }) {
  return <select ref={ref} aria-invalid={invalid || undefined} className={cn(control, 'pr-8', border(invalid), className)} {...props} />;
}
