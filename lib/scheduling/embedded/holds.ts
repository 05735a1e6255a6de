import 'server-only';
import type { Knex } from 'knex';
import type { ProcedureCallContext } from '../backend';

/** What the embedded scheduler's reservations and listings share: the hold rule and a slot's row. */

/** Calls without a caller (seed tools, unit tests) act for the hospital, as staff do. */
export const HOSPITAL: ProcedureCallContext = { clientId: '', actsForHospital: true };

export type SlotRow = { nr_seq_agenda: unknown; cd_agenda: unknown; start_iso: string; start_ms: unknown; minutes: unknown };

/** Active reservations that still hold their slot at `now`: not released and not lapsed. */
export function holding<T extends Knex.QueryBuilder>(query: T, now: unknown, table = 'reservations'): T {
  return query.where(`${table}.status`, 'active').andWhere((q) => {
    void q.whereNull(`${table}.expires_at`).orWhere(`${table}.expires_at`, '>', now as number);
  }) as T;
}
