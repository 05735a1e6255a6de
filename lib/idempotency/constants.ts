/**
 * How long idempotency keys live (no server imports, so specs can read them too). See store.ts for
 * what happens at each limit.
 */
export const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A key still in flight after this long belongs to an attempt that died; a retry may take it over. */
export const IN_FLIGHT_TIMEOUT_MS = 60 * 1000;
