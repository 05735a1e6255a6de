import 'server-only';
import type { Knex } from 'knex';
import { toNumber, type DbRow } from '@/lib/db/dialect';
import type { FieldRule } from './fields';
import { NO_PAYLOAD_CONTROL, type PayloadControl } from './contract';

/** A configuration's payload control in webhook_configs (migration 023): JSON text, and the code as it was saved. */
export const PAYLOAD_CONTROL_COLUMNS = ['payload_filter_json', 'payload_fields_json', 'payload_transform'] as const;

export function payloadControlFromRow(row: DbRow): PayloadControl {
  const filter = typeof row.payload_filter_json === 'string' ? (JSON.parse(row.payload_filter_json) as Record<string, unknown>) : null;
  const fields = typeof row.payload_fields_json === 'string' ? (JSON.parse(row.payload_fields_json) as FieldRule[]) : [];
  const transform = typeof row.payload_transform === 'string' ? row.payload_transform : null;
  return filter === null && fields.length === 0 && transform === null ? NO_PAYLOAD_CONTROL : { filter, fields, transform };
}

export function payloadControlRow(control: PayloadControl): Record<(typeof PAYLOAD_CONTROL_COLUMNS)[number], string | null> {
  return {
    payload_filter_json: control.filter === null ? null : JSON.stringify(control.filter),
    payload_fields_json: control.fields.length === 0 ? null : JSON.stringify(control.fields),
    payload_transform: control.transform,
  };
}

export async function savePayloadControl(trx: Knex.Transaction, id: string, control: PayloadControl): Promise<void> {
  await trx('webhook_configs').where({ id }).update(payloadControlRow(control));
}

/** How many of a configuration's deliveries created since `since` are `filtrada`: its health's figure. */
export async function countFiltered(db: Knex, configId: string, since: number): Promise<number> {
  const rows: DbRow[] = await db('webhook_deliveries')
    .where({ config_id: configId, status: 'filtrada' })
    .andWhere('created_at', '>=', since)
    .count({ n: '*' });
  return toNumber(rows[0]?.n ?? 0);
}

/** A delivery its transformation cancelled: `filtrada`, as a filtered event's, under this instance's lease. */
export async function cancelDelivery(db: Knex, owner: string, deliveryId: string): Promise<void> {
  await db('webhook_deliveries')
    .where({ id: deliveryId, lease_owner: owner })
    .update({ status: 'filtrada', next_attempt_at: null, lease_owner: null, lease_until: null });
}
