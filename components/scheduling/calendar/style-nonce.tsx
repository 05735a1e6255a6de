'use client';
import { createContext, useContext } from 'react';

/**
 * This response's CSP nonce, for the calendar's one <style> element. The console's policy allows
 * styles from this origin or with the nonce (lib/http/security-headers.ts): `style` attributes in
 * the server's HTML are blocked, so the grid, whose geometry follows from the slots, writes its
 * positions as a stylesheet with the nonce instead. Given by the page (app/(console)/scheduling).
 */
const StyleNonceContext = createContext<string | undefined>(undefined);

export const StyleNonce = StyleNonceContext;

export function useStyleNonce(): string | undefined {
  const given = useContext(StyleNonceContext);
  if (typeof document === 'undefined') return given;
  // After a client-side navigation the page was rendered for a later request, with a nonce of its
  // own; the document keeps the policy, and the nonce, it was loaded with. On a full load the two
  // are the same.
  return document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce || given;
}
