import 'server-only';
import { toNumber, type DbRow } from '@/lib/db/dialect';
import type { Db } from '@/lib/db/rows';

/** The turns between tenants waiting for the same exam (issue 48, table waitlist_turns; line.ts uses them). */
/** When each tenant waiting for an exam was last offered one of its slots (the turns between tenants). */
export async function turnsOf(db: Db, nrSeqProcInterno: number): Promise<Map<string, number>> {
  const rows: DbRow[] = await db('waitlist_turns').where({ nr_seq_proc_interno: nrSeqProcInterno }).select('usuario_id', 'last_offer_at');
  return new Map(rows.map((row) => [String(row.usuario_id), toNumber(row.last_offer_at)]));
}

export async function recordTurn(db: Db, nrSeqProcInterno: number, usuarioId: string, at: number): Promise<void> {
  const updated = await db('waitlist_turns')
    .where({ nr_seq_proc_interno: nrSeqProcInterno, usuario_id: usuarioId })
    .update({ last_offer_at: at });
  if (updated === 0) await db('waitlist_turns').insert({ nr_seq_proc_interno: nrSeqProcInterno, usuario_id: usuarioId, last_offer_at: at });
}
