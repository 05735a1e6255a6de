import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import type { Knex } from 'knex';
import { signingSecret } from '@/lib/auth/signing-secret';
import { log } from '@/lib/log';

/**
 * The sealing of signing secrets and broker logins as migration 020 shipped it (AES-256-GCM, v1
 * unbound, v2 bound to purpose and configuration). Copied from lib/webhooks/secrets.ts, not imported:
 * a shipped migration must not change when the feature's cipher does.
 */
const SEALED_COLUMNS = {
  secret_enc: 'webhook-signing-secret',
  previous_secret_enc: 'webhook-signing-secret',
  broker_credentials_enc: 'broker-credentials',
} as const;
type SealedColumn = keyof typeof SEALED_COLUMNS;
type SealFormat = 'v1' | 'v2';

let sealingKey: KeyObject | undefined;
function sealKey(): KeyObject {
  sealingKey ??= createSecretKey(Buffer.from(hkdfSync('sha256', signingSecret(), 'integration-console', 'webhook-signing-secrets', 32)));
  return sealingKey;
}

/** The associated data of a v2 value: its purpose and configuration; v1 had none. */
function sealedAad(format: SealFormat, column: SealedColumn, configId: string): Buffer | undefined {
  return format === 'v2' ? Buffer.from(`${SEALED_COLUMNS[column]}:${configId}`, 'utf8') : undefined;
}

function sealValue(format: SealFormat, clear: string, aad: Buffer | undefined): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(), iv);
  if (aad) cipher.setAAD(aad);
  const sealed = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
  return [format, iv.toString('base64url'), sealed.toString('base64url'), cipher.getAuthTag().toString('base64url')].join(':');
}

function openValue(stored: string, aad: Buffer | undefined): string | undefined {
  const [, iv, sealed, tag] = stored.split(':');
  if (!iv || !sealed || !tag) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealKey(), Buffer.from(iv, 'base64url'));
    if (aad) decipher.setAAD(aad);
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** Every sealed value in format `from` sealed again in format `to`, by pages of 500 configurations. */
export async function reseal(db: Knex, from: SealFormat, to: SealFormat): Promise<void> {
  const columns = Object.keys(SEALED_COLUMNS) as SealedColumn[];
  let after = '';
  let unreadable = 0;
  for (;;) {
    const rows: Record<string, unknown>[] = await db('webhook_configs')
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .select('id', ...columns);
    if (rows.length === 0) break;
    for (const row of rows) {
      const id = String(row.id);
      const changes: Partial<Record<SealedColumn, string>> = {};
      for (const column of columns) {
        const value = row[column];
        if (typeof value !== 'string' || !value.startsWith(`${from}:`)) continue;
        const clear = openValue(value, sealedAad(from, column, id));
        if (clear === undefined) unreadable++;
        else changes[column] = sealValue(to, clear, sealedAad(to, column, id));
      }
      if (Object.keys(changes).length > 0) await db('webhook_configs').where({ id }).update(changes);
    }
    after = String(rows.at(-1)!.id);
  }
  if (unreadable > 0) log.warn('db.ciphertexts_unreadable', { count: unreadable, docs: 'docs/production.md, AUTH_SECRET' });
}
