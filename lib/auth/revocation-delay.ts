/**
 * How long a revoked client's tokens may still be accepted: each instance keeps a client's state
 * this long before reading it again (client-state.ts). The console's confirmation and
 * docs/production.md state the same figure. No server imports: the console's client components read it.
 */
export const REVOCATION_DELAY_SECONDS = 30;
