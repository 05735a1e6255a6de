import 'server-only';
import type { Knex } from 'knex';
import { env } from '@/lib/config/env';
import { findApiClient } from '@/lib/api-clients/store';
import { verifyClientSecret } from '@/lib/auth/client-secrets';
import { verifySecret } from '@/lib/auth/passwords';
import { log } from '@/lib/log';
import { findStaffByEmail } from '@/lib/staff/store';
import { demoSeed } from './demo-seed';

/**
 * The demo's published credentials that still open this database. Before issue 27 the embedded
 * default (the container image included) seeded the demo unasked, so a volume made then holds a
 * demo admin and API clients whose secrets are in the README. Each is checked for real (its secret
 * or password still verifies, and it is neither revoked nor disabled): one rotated or changed is
 * no longer the public one. A database without the demo's ids costs two lookups per credential.
 */
export async function openDemoCredentials(db: Knex): Promise<string[]> {
  const demo = demoSeed();
  const open: string[] = [];
  for (const client of demo.apiClients ?? []) {
    const row = await findApiClient(db, client.clientId);
    if (!row || row.revokedAt !== null) continue;
    // After a rotation the previous secret keeps working for the overlap (CLIENT_SECRET_OVERLAP_HOURS).
    const inOverlap = row.previousSecretHash !== null && (row.previousSecretUntil ?? 0) > Date.now();
    const current = (await verifyClientSecret(client.clientSecret, row.secretHash)).valid;
    if (current || (inOverlap && (await verifyClientSecret(client.clientSecret, row.previousSecretHash ?? undefined)).valid)) {
      open.push(client.clientId);
    }
  }
  for (const user of demo.staff ?? []) {
    const row = await findStaffByEmail(db, user.email);
    if (row && row.disabledAt === null && (await verifySecret(user.password, row.passwordHash))) open.push(user.email);
  }
  return open;
}

/** Said at every start not asking for the demo (SEED_DEMO) while its public credentials still open the database. */
export async function warnOfDemoCredentials(db: Knex): Promise<void> {
  if (env().SEED_DEMO) return;
  const open = await openDemoCredentials(db);
  if (open.length === 0) return;
  log.warn('seed.demo_credentials_open', {
    credentials: open.join(' '),
    action: 'revoke the API clients at /admin/clientes and disable the staff accounts at /admin/equipe',
  });
}
