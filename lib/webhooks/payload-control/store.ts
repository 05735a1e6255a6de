import 'server-only';
import type { DbRow } from '@/lib/db/dialect';
import type { FieldRule } from './fields';
import { NO_PAYLOAD_CONTROL, type PayloadControl } from './contract';

/**
 * A configuration's payload control as webhook_configs holds it (migration 023): JSON text, and the
 * code as it was saved. The queries are the tables' owners': the configurations store saves it,
 * the delivery store reads it with the attempt's row.
 */
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
