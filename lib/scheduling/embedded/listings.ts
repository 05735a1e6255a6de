import 'server-only';
import type { Knex } from 'knex';
import { toBoolean, toNumber, type DbRow } from '@/lib/db/dialect';
import type { ProcedureCallContext } from '../backend';
import type { Agenda, AgendaQuery, FreeSlot, FreeSlotQuery, Procedure, Slot, SlotQuery } from '../contract';
import { holding, type SlotRow } from './holds';

/**
 * The embedded scheduler's read side: free slots, the calendar's grid and its agendas, and the
 * exams, from the same tables and the same overlap rule (holds.ts) its reservations decide by.
 */

export async function listFreeSlots(db: Knex, now: number, query: FreeSlotQuery): Promise<FreeSlot[]> {
  const from = Math.max(now + 1, query.de ? Date.parse(query.de) : 0);
  let slots = db('slots').where('start_ms', '>=', from);
  if (query.ate) slots = slots.andWhere('start_ms', '<=', Date.parse(query.ate));
  if (query.cdAgenda) slots = slots.andWhere({ cd_agenda: query.cdAgenda });
  // A slot is free when no active reservation of its agenda overlaps its own span.
  const rows = (await slots
    .whereNotExists(
      holding(db('reservations as r').select(db.raw('1')), now, 'r')
        // ?? quotes identifiers per dialect: Oracle's are case-sensitive once knex created them quoted.
        .whereRaw('?? = ??', ['r.cd_agenda', 'slots.cd_agenda'])
        .andWhereRaw('?? < ?? + ?? * 60000', ['r.start_ms', 'slots.start_ms', 'slots.minutes'])
        .andWhereRaw('?? > ??', ['r.end_ms', 'slots.start_ms']),
    )
    .orderBy([{ column: 'start_ms' }, { column: 'nr_seq_agenda' }])
    .limit(query.limite)) as SlotRow[];
  return rows.map((row) => ({
    NR_SEQ_AGENDA: toNumber(row.nr_seq_agenda),
    CD_AGENDA: toNumber(row.cd_agenda),
    DT_AGENDA: row.start_iso,
    NR_MIN_DURACAO: toNumber(row.minutes),
  }));
}

/** The slots of a calendar window that have not started yet: what listSlots and listAgendas read. */
function futureSlotsOf(db: Knex, window: AgendaQuery, now: number) {
  return db('slots')
    .where('start_ms', '>=', Math.max(now + 1, Date.parse(window.de)))
    .andWhere('start_ms', '<=', Date.parse(window.ate));
}

/** The agendas with a future slot in the window, whatever its state: listSlots' rows, by agenda. */
export async function listAgendas(db: Knex, now: number, query: AgendaQuery): Promise<Agenda[]> {
  const rows = (await futureSlotsOf(db, query, now).distinct('cd_agenda').orderBy('cd_agenda')) as DbRow[];
  return rows.map((row) => ({ CD_AGENDA: toNumber(row.cd_agenda) }));
}

/**
 * Every future slot of the window with its state. A slot is `reservado` when an active hold the
 * caller may see (its own; staff, acting for the hospital, anyone's) starts at it, `ocupado` when
 * any other active hold overlaps its span (someone else's, or a longer one from an earlier slot),
 * and `livre` otherwise: the same overlap rule as the free listing and the reservation itself.
 */
export async function listSlots(db: Knex, now: number, query: SlotQuery, context: ProcedureCallContext): Promise<Slot[]> {
  let slots = futureSlotsOf(db, query, now);
  if (query.cdAgenda) slots = slots.andWhere({ cd_agenda: query.cdAgenda });
  const rows = (await slots.orderBy([{ column: 'start_ms' }, { column: 'nr_seq_agenda' }]).limit(query.limite)) as SlotRow[];
  if (rows.length === 0) return [];

  const spans = rows.map((row) => ({ row, start: toNumber(row.start_ms), end: toNumber(row.start_ms) + toNumber(row.minutes) * 60_000 }));
  const first = Math.min(...spans.map((span) => span.start));
  const last = Math.max(...spans.map((span) => span.end));
  let holds = holding(db('reservations'), now)
    .select('nr_seq_agenda', 'cd_agenda', 'start_ms', 'end_ms', 'owner', 'expires_at')
    .andWhere('start_ms', '<', last)
    .andWhere('end_ms', '>', first);
  if (query.cdAgenda) holds = holds.andWhere({ cd_agenda: query.cdAgenda });
  const byAgenda = new Map<number, DbRow[]>();
  for (const hold of (await holds) as DbRow[]) {
    const agenda = toNumber(hold.cd_agenda);
    byAgenda.set(agenda, [...(byAgenda.get(agenda) ?? []), hold]);
  }

  return spans.map(({ row, start, end }) => {
    const agenda = toNumber(row.cd_agenda);
    const slot = toNumber(row.nr_seq_agenda);
    const overlapping = (byAgenda.get(agenda) ?? []).filter((hold) => toNumber(hold.start_ms) < end && toNumber(hold.end_ms) > start);
    const own = overlapping.find(
      (hold) =>
        toNumber(hold.nr_seq_agenda) === slot && (context.actsForHospital || (context.owner !== undefined && hold.owner === context.owner)),
    );
    const expires = own?.expires_at === null || own?.expires_at === undefined ? null : new Date(toNumber(own.expires_at)).toISOString();
    return {
      NR_SEQ_AGENDA: slot,
      CD_AGENDA: agenda,
      DT_AGENDA: row.start_iso,
      NR_MIN_DURACAO: toNumber(row.minutes),
      situacao: own ? 'reservado' : overlapping.length > 0 ? 'ocupado' : 'livre',
      expiraEm: own ? expires : null,
    };
  });
}

export async function listProcedures(db: Knex): Promise<Procedure[]> {
  const rows = (await db('procedures')
    .select('nr_seq_proc_interno', 'description', 'default_minutes', 'requires_side')
    .orderBy([{ column: 'description' }, { column: 'nr_seq_proc_interno' }])) as DbRow[];
  return rows.map((row) => ({
    NR_SEQ_PROC_INTERNO: toNumber(row.nr_seq_proc_interno),
    DS_PROCEDIMENTO: String(row.description),
    NR_MIN_DURACAO: toNumber(row.default_minutes),
    IE_LADO_OBRIGATORIO: toBoolean(row.requires_side) ? 'S' : 'N',
  }));
}
