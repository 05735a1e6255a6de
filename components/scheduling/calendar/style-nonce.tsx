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
  return useContext(StyleNonceContext);
}
