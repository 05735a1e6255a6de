'use client';
import type { ButtonHTMLAttributes, Ref } from 'react';
import { buttonClasses, type Size, type Variant } from './button-classes';
import { NOT_READY_ID } from './not-ready';
import { useReady } from './use-ready';

export { buttonClasses } from './button-classes';

/**
 * Until the page has hydrated, a button's click would reach no handler and be lost without a word.
 * So every button stays disabled until then, described by the page's "not ready yet" reason
 * (<NotReadyReason>, in the root layout) for screen readers; once hydrated it is as its props say.
 * A submit button inside <Form> is disabled by the form's fieldset as well; inside a form whose code
 * is still loading (<Form ready={false}>) it stays disabled and described so until it has.
 */
export function Button({
  variant = 'primary',
  size = 'md',
  className,
  type = 'button',
  disabled,
  'aria-describedby': describedBy,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; size?: Size; ref?: Ref<HTMLButtonElement> }) {
  const ready = useReady();
  return (
    <button
      type={type}
      className={buttonClasses(variant, size, className)}
      disabled={disabled || !ready}
      aria-describedby={ready ? describedBy : [NOT_READY_ID, describedBy].filter(Boolean).join(' ')}
      {...props}
    />
  );
}
