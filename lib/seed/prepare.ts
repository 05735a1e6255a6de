import 'server-only';
import type { Knex } from 'knex';
import { ensureWebhookSecrets } from '@/lib/webhooks/configurations/store/secrets';
import { loadSeed, seedOnce, topUpDemoSlots, usesDemoSeed } from './seed';

/**
 * What a freshly migrated database needs before the server answers: the seed (SEED_FILE, or the
 * demo's, once), the demo's slots topped up, and webhook secrets stored before encryption was on
 * encrypted. Run once per start by lib/startup.ts, after the database is open (lib/db/handle.ts
 * only migrates: the bottom layer knows no feature).
 */
export async function prepareDatabase(db: Knex): Promise<void> {
  await seedOnce(db, loadSeed());
  if (usesDemoSeed()) await topUpDemoSlots(db);
  await ensureWebhookSecrets(db);
}
