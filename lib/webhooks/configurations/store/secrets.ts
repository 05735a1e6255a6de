import 'server-only';
import type { Knex } from 'knex';
import type { DbRow } from '@/lib/db/dialect';
import { newEncryptedSecret } from '../secrets';

/** A configuration's signing secrets as stored (encrypted): the current one and the one it replaced. */

/** The signing secret as stored (encrypted: lib/webhooks/configurations/secrets.ts opens it). */
export async function readEncryptedSecret(db: Knex | Knex.Transaction, id: string): Promise<string | undefined> {
  const row = await db('webhook_configs').where({ id }).first<DbRow | undefined>('secret_enc');
  return typeof row?.secret_enc === 'string' ? row.secret_enc : undefined;
}

/** A new signing secret; the one it replaces keeps signing beside it until `previousUntil`. */
export async function replaceEncryptedSecret(trx: Knex.Transaction, id: string, secretEnc: string, previousUntil: number): Promise<void> {
  const previous = await readEncryptedSecret(trx, id);
  await trx('webhook_configs')
    .where({ id })
    .update({ secret_enc: secretEnc, previous_secret_enc: previous ?? null, previous_secret_until: previousUntil });
}

/** Configurations stored before secrets existed (migration 004) get theirs when the app opens the database. */
export async function ensureWebhookSecrets(db: Knex): Promise<void> {
  const missing: DbRow[] = await db('webhook_configs').whereNull('secret_enc').select('id');
  for (const row of missing) {
    const id = String(row.id);
    await db('webhook_configs')
      .where({ id })
      .whereNull('secret_enc')
      .update({ secret_enc: newEncryptedSecret(id) });
  }
}
