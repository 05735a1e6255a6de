/**
 * Security headers of console pages (set by proxy.ts, per request). Pure: no server imports.
 *
 * The Content-Security-Policy allows scripts only with this response's nonce ('strict-dynamic'
 * lets those load Next's chunks), so an injected <script> never runs; styles only from this origin
 * or with the nonce; nothing framed, nothing posted elsewhere. Next reads the nonce from the
 * request's CSP header and puts it on its own scripts, which is why pages render per request.
 * Development adds 'unsafe-eval', which React's dev tooling needs; production never has it.
 */
export const CSP_HEADER = 'Content-Security-Policy';

/**
 * `frameAncestors`: the origins whose pages may frame this page. Only the partner portal's pages
 * pass any (PORTAL_FRAME_ANCESTORS, proxy.ts); the console's refuse every frame. A browser that
 * honours frame-ancestors ignores X-Frame-Options (CSP Level 2), which stays DENY on every answer
 * for the browsers that do not.
 */
export function contentSecurityPolicy(nonce: string, development: boolean, frameAncestors: readonly string[] = []): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ');
}

/** Browser features the console never uses, switched off for it and anything it might embed. */
export const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'browsing-topics=()',
].join(', ');

/** HSTS only when the public URL is https: on plain http the header is ignored, and it must not pin a dev host. */
export function strictTransportSecurity(publicUrl: string | undefined): string | undefined {
  return publicUrl?.startsWith('https://') ? 'max-age=31536000; includeSubDomains' : undefined;
}

export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
