import type { InputHTMLAttributes, Ref } from 'react';
import { cn } from './cn';

/** A checkbox drawn as an on/off switch; still a native checkbox for keyboards and forms. */
export function Switch({
  className,
  ref,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { ref?: Ref<HTMLInputElement> }) {
  return (
    <span className={cn('relative inline-flex h-6 w-11 shrink-0', className)}>
      <input
        ref={ref}
        type="checkbox"
        role="switch"
        className="peer absolute inset-0 z-10 h-full w-full cursor-pointer appearance-none rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        {...props}
      />
      <span aria-hidden className="absolute inset-0 rounded-full bg-slate-300 transition-colors peer-checked:bg-indigo-700" />
      <span
        aria-hidden
        className="absolute top-0.5 left-0.5 h-5 w-5 rounded-full bg-white shadow transition-transform peer-checked:translate-x-5"
      />
    </span>
  );
}
