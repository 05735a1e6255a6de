// Headers on every answer, pages and API alike: next.config.mjs sets them on Next's answers, the
// lean API server (lib/api-server) on its own. Plain .mjs so next.config.mjs can import it.
export const BASELINE_HEADERS = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'same-origin' },
  { key: 'X-Frame-Options', value: 'DENY' },
];
