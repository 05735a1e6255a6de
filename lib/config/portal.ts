import { z } from 'zod';

/**
 * The partner portal's settings (issue 30), merged into the app's environment schema in
 * lib/config/env.ts. No server imports: proxy.ts reads the framing origins through env().
 */
export const portalEnvShape = {
  /** A portal link must be opened within this many minutes of being issued (once). */
  PORTAL_LINK_MINUTES: z.coerce.number().min(0.05).max(10_080).default(15),
  /** A portal session opened by a link lasts this many minutes, then the partner needs a new link. */
  PORTAL_SESSION_MINUTES: z.coerce.number().min(0.05).max(1_440).default(60),
  /**
   * The origins whose pages may show /portal in an iframe (CSP frame-ancestors), separated by
   * spaces or commas, each scheme://host[:port]. Unset: no page may frame the portal. The console
   * itself refuses every frame whatever this says.
   */
  PORTAL_FRAME_ANCESTORS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const origins = (value ?? '').split(/[\s,]+/).filter(Boolean);
      const normalized: string[] = [];
      for (const origin of origins) {
        const parsed = parseOrigin(origin);
        if (!parsed) {
          ctx.addIssue({ code: 'custom', message: `${origin} is not an origin: scheme://host[:port], http or https, no path` });
          return z.NEVER;
        }
        normalized.push(parsed);
      }
      return normalized;
    }),
};

/** `https://host[:port]` exactly (no path, query, credentials or wildcard), as URL.origin writes it. */
function parseOrigin(text: string): string | undefined {
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    // A wildcard host is valid CSP, but the setting names each origin it trusts.
    if (url.hostname.includes('*')) return undefined;
    if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return undefined;
    if (text.replace(/\/$/, '').toLowerCase() !== url.origin.toLowerCase()) return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}
