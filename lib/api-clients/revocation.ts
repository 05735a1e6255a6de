/**
 * How long a revoked client's tokens may still be accepted: each instance keeps a client's state
 * this long before reading it again (lib/auth/client-state.ts). The console's confirmation and
 * docs/production.md state the same figure.
 */
export const REVOCATION_DELAY_SECONDS = 30;
