import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { isUniqueViolation, lockForUpdate, toBoolean, toNumber, writeTransaction, type DbRow } from '@/lib/db/dialect';
import { activeBookingKey } from './active-booking';
import { log, redactError } from '@/lib/log';
import type { FreeSlot, FreeSlotQuery, Procedure, SlotReservationRequest } from './contract';
import { answer, RequestFieldRejected, type ProcedureAnswer, type SchedulingBackend } from './backend';

/**
 * The embedded scheduler: the stored procedure's contract (service-interface.md §3.1, §7.2)
 * implemented on the app's own database, so the product runs end to end on one machine.
 *
 * A reservation occupies `nrMinDuracao` minutes from its slot's start; any other slot of the same
 * agenda overlapping an active reservation is no longer free. Every decision runs in one
 * transaction that first locks the agenda's row, so simultaneous requests for one agenda are
 * decided one after another on any database (SQLite serialises writers anyway).
 */
export const MESSAGES = {
  reserved: 'Horário reservado com sucesso.',
  released: 'Reserva cancelada; horário liberado.',
  unavailable: 'Horário não está mais disponível.',
  slotNotFound: 'Horário (NR_SEQ_AGENDA) não encontrado.',
  cannotRelease: 'Não foi possível cancelar a reserva: token inválido ou horário não reservado.',
  alreadyBooked: 'O beneficiário já possui reserva ativa para este exame.',
  internal: 'Erro interno ao processar a reserva.',
} as const;

type SlotRow = { nr_seq_agenda: unknown; cd_agenda: unknown; start_iso: string; start_ms: unknown; minutes: unknown };

export function newReservationToken(): string {
  return randomBytes(16).toString('hex').toUpperCase(); // 128 random bits in 32 characters
}

export class EmbeddedScheduler implements SchedulingBackend {
  readonly name = 'embedded' as const;

  constructor(
    private readonly database: () => Promise<Knex>,
    private readonly now: () => number = Date.now,
  ) {}

  async reserveOrRelease(request: SlotReservationRequest): Promise<ProcedureAnswer> {
    const db = await this.database();
    try {
      return await writeTransaction(db, (trx) => (request.ieOpcao === 'R' ? this.reserve(trx, request) : this.release(trx, request)));
    } catch (error) {
      if (error instanceof RequestFieldRejected) throw error;
      // The race the check in reserve() cannot see: the unique active-booking key refused it.
      if (isUniqueViolation(error)) return answer('5', false, '', MESSAGES.alreadyBooked);
      log.error('scheduler.embedded_failure', { option: request.ieOpcao, ...redactError(error) });
      return answer('9', false, '', MESSAGES.internal);
    }
  }

  private async lockedSlot(trx: Knex.Transaction, nrSeqAgenda: number): Promise<SlotRow | undefined> {
    const slot = (await trx('slots').where({ nr_seq_agenda: nrSeqAgenda }).first()) as SlotRow | undefined;
    // No .first(): Oracle refuses FOR UPDATE inside the ROWNUM subquery knex writes for a limit.
    if (slot) await lockForUpdate(trx, trx('agendas').where({ cd_agenda: slot.cd_agenda }).select('cd_agenda'));
    return slot;
  }

  private async reserve(trx: Knex.Transaction, request: SlotReservationRequest): Promise<ProcedureAnswer> {
    const slot = await this.lockedSlot(trx, request.nrSeqAgenda);
    if (!slot) return answer('3', false, '', MESSAGES.slotNotFound);

    const procedure = (await trx('procedures').where({ nr_seq_proc_interno: request.nrSeqProcInterno }).first()) as DbRow | undefined;
    // CODIGO_P 3 means "slot not found" (§7.2); an unknown exam is the caller's bad field.
    if (!procedure) throw new RequestFieldRejected('nrSeqProcInterno', 'unknownProcedure');
    if (toBoolean(procedure.requires_side) && !request.ieLado) throw new RequestFieldRejected('ieLado', 'sideRequired');

    const start = toNumber(slot.start_ms);
    const end = start + request.nrMinDuracao * 60_000;
    if (start <= this.now()) return answer('2', false, '', MESSAGES.unavailable);
    const overlapping = await trx('reservations')
      .where({ cd_agenda: slot.cd_agenda, status: 'active' })
      .andWhere('start_ms', '<', end)
      .andWhere('end_ms', '>', start)
      .first<DbRow | undefined>('token');
    if (overlapping) return answer('2', false, '', MESSAGES.unavailable);

    // The common case; simultaneous reservations on other agendas are caught by the unique key below.
    const alreadyBooked = await trx('reservations')
      .where({ cd_pessoa_fisica: request.cdPessoaFisica, nr_seq_proc_interno: request.nrSeqProcInterno, status: 'active' })
      .first<DbRow | undefined>('token');
    if (alreadyBooked) return answer('5', false, '', MESSAGES.alreadyBooked);

    const token = newReservationToken();
    await trx('reservations').insert({
      token,
      nr_seq_agenda: request.nrSeqAgenda,
      cd_agenda: slot.cd_agenda,
      start_ms: start,
      end_ms: end,
      nr_seq_proc_interno: request.nrSeqProcInterno,
      cd_pessoa_fisica: request.cdPessoaFisica,
      ie_lado: request.ieLado ?? null,
      cd_convenio: request.cdConvenio,
      cd_categoria: request.cdCategoria,
      cd_plano: request.cdPlano,
      cd_usuario_convenio: request.cdUsuarioConvenio,
      nm_usuario: request.nmUsuario,
      status: 'active',
      active_booking: activeBookingKey(request.cdPessoaFisica, request.nrSeqProcInterno),
      reserved_at: this.now(),
    });
    return answer('0', true, token, MESSAGES.reserved);
  }

  private async release(trx: Knex.Transaction, request: SlotReservationRequest): Promise<ProcedureAnswer> {
    const slot = await this.lockedSlot(trx, request.nrSeqAgenda);
    if (!slot) return answer('3', false, '', MESSAGES.slotNotFound);
    const released = await trx('reservations')
      .where({ token: request.tokenReservaCanc ?? '', nr_seq_agenda: request.nrSeqAgenda, status: 'active' })
      .update({ status: 'released', active_booking: null, released_at: this.now() });
    if (released !== 1) return answer('4', false, '', MESSAGES.cannotRelease);
    return answer('1', false, '', MESSAGES.released);
  }

  async listFreeSlots(query: FreeSlotQuery): Promise<FreeSlot[]> {
    const db = await this.database();
    const from = Math.max(this.now() + 1, query.de ? Date.parse(query.de) : 0);
    let slots = db('slots').where('start_ms', '>=', from);
    if (query.ate) slots = slots.andWhere('start_ms', '<=', Date.parse(query.ate));
    if (query.cdAgenda) slots = slots.andWhere({ cd_agenda: query.cdAgenda });
    // A slot is free when no active reservation of its agenda overlaps its own span.
    const rows = (await slots
      .whereNotExists(
        db('reservations as r')
          .select(db.raw('1'))
          // ?? quotes identifiers per dialect: Oracle's are case-sensitive once knex created them quoted.
          .whereRaw('?? = ??', ['r.cd_agenda', 'slots.cd_agenda'])
          .andWhere('r.status', 'active')
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

  async listProcedures(): Promise<Procedure[]> {
    const db = await this.database();
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
}
