/**
 * The caller's address as throttling sees it: the first X-Forwarded-For entry. Next's server fills
 * the header with the socket address when no proxy sent one; a caller can put anything there, which
 * is why every throttle also keeps a counter that ignores the address.
 */
export function clientAddress(forwardedFor: unknown): string {
  const first = typeof forwardedFor === 'string' ? forwardedFor.split(',')[0]?.trim() : undefined;
  return first || 'unknown';
}
