/**
 * A same-origin path to return to after sign-in, or undefined. Browsers drop tabs and newlines
 * from URLs and read `\` as `/`, so `/\t/evil.example` or `/\evil.example` would leave the site:
 * anything with control characters or backslashes is refused, and the value is resolved against
 * a placeholder origin to prove it stays on it.
 */
const PLACEHOLDER_ORIGIN = 'http://console.invalid';

export function safeReturnPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 2048) return undefined;
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return undefined;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN || url.pathname.startsWith('//')) return undefined;
  return url.pathname + url.search + url.hash;
}
