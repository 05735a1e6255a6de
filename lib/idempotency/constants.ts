/**
 * How long idempotency keys live (no server imports, so specs can read them too). See store.ts for
 * what happens at each limit.
 */
export const RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * The shortest time a key stays in flight before a retry may take it over, presuming the attempt
 * that holds it died. Operations that can run longer pass their own timeout (inFlightTimeoutFor).
 */
export const IN_FLIGHT_TIMEOUT_MS = 60 * 1000;
/** Beyond the operation's own worst case: clock skew between instances, the answer being stored. */
const IN_FLIGHT_MARGIN_MS = 30 * 1000;

/** The in-flight timeout for an operation that may run up to `maxOperationMs`. */
export function inFlightTimeoutFor(maxOperationMs: number): number {
  return Math.max(IN_FLIGHT_TIMEOUT_MS, maxOperationMs + IN_FLIGHT_MARGIN_MS);
}
