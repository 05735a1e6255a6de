import 'server-only';
import type { Knex } from 'knex';
import { lockForUpdate, toNumber, type DbRow } from '@/lib/db/dialect';
import type { WebhookConfiguration } from '../contract';
import { newEncryptedSecret } from '../secrets';
import type { PayloadControl } from '../../payload-control/contract';
import { payloadControlRow } from '../../payload-control/store';
import { controlsRow, fromRow, NO_CONTROLS, toRow, type DeliveryControls, type StoredWebhook } from './rows';
import { saveSubscriptions, subscriptionsOf } from './subscriptions';

/**
 * The configurations' store (webhook_configs): find, list, insert, save, delete. With rows.ts
 * (the row's shape), subscriptions.ts, contact.ts, secrets.ts and tenants.ts, the only modules that
 * query the configuration tables (lib/data/table-ownership.test.ts), but for the delivery store's
 * reads and its runtime columns (lib/webhooks/delivery/store/receivers.ts).
 */

async function withSubscriptions(db: Knex | Knex.Transaction, rows: readonly DbRow[]): Promise<StoredWebhook[]> {
  const events = await subscriptionsOf(
    db,
    rows.map((row) => String(row.id)),
  );
  return rows.map((row) => fromRow(row, events.get(String(row.id)) ?? new Set()));
}

export async function findWebhook(db: Knex | Knex.Transaction, id: string, options: { lock?: boolean } = {}) {
  // By primary key, so at most one row; no .first() (a limit), which Oracle cannot lock FOR UPDATE.
  const query = db('webhook_configs').where({ id });
  const rows = (await (options.lock ? lockForUpdate(db, query) : query)) as DbRow[];
  return rows[0] ? (await withSubscriptions(db, rows))[0] : undefined;
}

export async function listWebhooks(db: Knex, filter: { usuarioId?: string; search?: string; limit: number }) {
  let query = db('webhook_configs').orderBy('url').limit(filter.limit);
  if (filter.usuarioId) query = query.where({ usuario_id: filter.usuarioId });
  if (filter.search) {
    const pattern = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // ?? quotes the column per dialect (Oracle's quoted lower-case names are case-sensitive).
    const matches = (column: string) => [`lower(??) like ? escape '\\'`, [column, pattern]] as const;
    query = query.where((q) => {
      q.whereRaw(...matches('url'))
        .orWhereRaw(...matches('usuario_id'))
        .orWhereRaw(...matches('client_id'));
    });
  }
  return withSubscriptions(db, (await query) as DbRow[]);
}

/** The configurations with these ids (at most 1,000: Oracle's IN list), by id. */
export async function findWebhooks(db: Knex, ids: readonly string[]): Promise<Map<string, StoredWebhook>> {
  if (ids.length === 0) return new Map();
  const found = await withSubscriptions(db, (await db('webhook_configs').whereIn('id', [...ids])) as DbRow[]);
  return new Map(found.map((stored) => [stored.config.id, stored]));
}

/** The configurations a caller may see (one tenant's, or every one): id, url and usuario_id, for another store's list to join. */
export function visibleConfigs(db: Knex, usuarioId: string | undefined): Knex.QueryBuilder {
  const query = db('webhook_configs').select('id', 'url', 'usuario_id');
  return usuarioId ? query.where({ usuario_id: usuarioId }) : query;
}

export async function insertWebhook(trx: Knex.Transaction, config: WebhookConfiguration, controls = NO_CONTROLS): Promise<void> {
  await trx('webhook_configs').insert({
    ...toRow(config, 1),
    ...controlsRow(controls),
    secret_enc: newEncryptedSecret(config.id),
    enabled: true,
  });
  await saveSubscriptions(trx, config);
}

/** How many configurations the tenant has (the create's quota counts them under the tenant's row lock: ../quota.ts). */
export async function countTenantWebhooks(trx: Knex.Transaction, usuarioId: string): Promise<number> {
  const row = (await trx('webhook_configs').where({ usuario_id: usuarioId }).count({ n: '*' }).first()) as DbRow | undefined;
  return toNumber(row?.n ?? 0);
}

/** Switches deliveries on (clearing why they were off) or off (for `reason`); part of the version. */
export async function saveSwitch(trx: Knex.Transaction, id: string, enabled: boolean, reason: string | null, now: number) {
  const values = enabled
    ? { enabled: true, disabled_reason: null, disabled_at: null }
    : { enabled: false, disabled_reason: reason, disabled_at: now };
  await trx('webhook_configs').where({ id }).update(values);
}

/** Writes a whole configuration, only if it still has `expectedVersion`; false when it did not. */
export async function saveWebhook(trx: Knex.Transaction, config: WebhookConfiguration, expectedVersion: number) {
  // Identity and tenant never change on update.
  const {
    id,
    usuario_id: _usuarioId,
    sistema_origem: _sistemaOrigem,
    client_id: _clientId,
    ...changeable
  } = toRow(config, expectedVersion + 1);
  const updated = await trx('webhook_configs').where({ id, version: expectedVersion }).update(changeable);
  if (updated === 1) await saveSubscriptions(trx, config);
  return updated === 1;
}

/** A configuration's delivery controls (part of its version, written with saveWebhook). */
export async function saveControls(trx: Knex.Transaction, id: string, controls: DeliveryControls): Promise<void> {
  await trx('webhook_configs').where({ id }).update(controlsRow(controls));
}

/** A configuration's payload control (filter, field rules, transformation), saved with its PUT. */
export async function savePayloadControl(trx: Knex.Transaction, id: string, control: PayloadControl): Promise<void> {
  await trx('webhook_configs').where({ id }).update(payloadControlRow(control));
}

/** A broker target's login, encrypted (null: none); beyond the contract, not part of the version. */
export async function saveBrokerCredentials(trx: Knex.Transaction, id: string, encrypted: string | null): Promise<void> {
  await trx('webhook_configs').where({ id }).update({ broker_credentials_enc: encrypted });
}

/** The configuration's row (what other parts keep of it goes first: the `deleting` hook, hooks.ts). */
export async function deleteWebhookRow(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('webhook_subscriptions').where({ config_id: id }).delete();
  await trx('webhook_configs').where({ id }).delete();
}
