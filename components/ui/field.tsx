import type { ReactNode } from 'react';
import { cn } from './cn';

/**
 * A labelled form field: the label (an API field name is shown in monospace), a one-line
 * description and the error, wired to the control through ids the control must use:
 * `fieldIds(id).description` and `fieldIds(id).error` in its aria-describedby.
 */
export function fieldIds(id: string) {
  return { description: `${id}-description`, error: `${id}-error` };
}

export function describedBy(id: string, options: { description?: boolean; error?: boolean }): string | undefined {
  const ids = fieldIds(id);
  const parts = [options.description && ids.description, options.error && ids.error].filter(Boolean);
  return parts.length ? parts.join(' ') : undefined;
}

export function Field({
  id,
  label,
  mono = false,
  badge,
  description,
  error,
  children,
  className,
}: {
  id: string;
  label: ReactNode;
  mono?: boolean;
  badge?: ReactNode;
  description?: ReactNode;
  error?: string;
  children: ReactNode;
  className?: string;
}) {
  const ids = fieldIds(id);
  return (
    <div className={cn('flex min-w-0 flex-col gap-1', className)}>
      {/* Grows so that controls of fields side by side line up when one description wraps. */}
      <div className="flex grow flex-col gap-1">
        <label htmlFor={id} className="flex flex-wrap items-baseline gap-x-2 text-sm font-medium text-slate-900">
          <span className={mono ? 'font-mono text-[0.8125rem]' : undefined}>{label}</span>
          {/* The space keeps "nrSeqAgenda obrigatório" two words in the accessible name. */}
          {badge ? <span className="text-xs font-normal text-slate-600"> {badge}</span> : null}
        </label>
        {description ? (
          <p id={ids.description} className="text-xs leading-snug text-slate-600">
            {description}
          </p>
        ) : null}
      </div>
      {children}
      {error ? (
        <p id={ids.error} className="text-xs font-medium text-red-700" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
