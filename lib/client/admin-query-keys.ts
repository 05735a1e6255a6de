/**
 * The administration pages' TanStack Query keys. Not a client module: the server pages that
 * prefetch a page's first data (lib/console/prefetch.ts) file it under the keys the client
 * components read.
 */
export const adminKeys = {
  apiClients: ['admin', 'api-clients'] as const,
  staff: ['admin', 'staff'] as const,
};
