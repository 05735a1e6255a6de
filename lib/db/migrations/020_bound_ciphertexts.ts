import { reseal } from './reseal';
import type { Migration } from './migration';

/**
 * Bound ciphertexts (issue 43): signing secrets and broker logins were sealed (AES-256-GCM,
 * lib/webhooks/secrets.ts) with no associated data, so a value moved into another column or row
 * still opened, a broker password read back through the signing-secret operation. Each is sealed
 * again (format v2) bound to its purpose and its configuration, which refuses a moved value. The
 * cipher is copied here, not imported: a shipped migration must not change when the feature's
 * does. A value that does not open (AUTH_SECRET changed since it was sealed) is left as it is,
 * unreadable as before, and counted in the log. Down seals them unbound again (v1).
 */
export const boundCiphertexts: Migration = {
  up: (db) => reseal(db, 'v1', 'v2'),
  down: (db) => reseal(db, 'v2', 'v1'),
};
