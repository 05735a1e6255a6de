import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { isUniqueViolation, lockForUpdate, toBoolean, toNumber, writeTransaction, type DbRow } from '@/lib/db/dialect';
import { activeBookingKey } from './active-booking';
import { log, redactError } from '@/lib/log';
import type { FreeSlot, FreeSlotQuery, Procedure, SlotReservationRequest } from './contract';
import { answer, RequestFieldRejected, type ProcedureAnswer, type ProcedureCallContext, type SchedulingBackend } from './backend';
import { assertHoldQuota, HoldQuotaExceeded } from './hold-quota';

/**
 * The embedded scheduler: the stored procedure's contract (service-interface.md §3.1, §7.2)
 * implemented on the app's own database, so the product runs end to end on one machine.
 *
 * A reservation occupies `nrMinDuracao` minutes from its slot's start; any other slot of the same
 * agenda overlapping an active reservation is no longer free. Every decision runs in one
 * transaction that first locks the agenda's row, so simultaneous requests for one agenda are
 * decided one after another on any database (SQLite serialises writers anyway).
 *
 * A reservation belongs to its owner (the caller's ownerKey): only the owner, or staff acting for
 * the hospital, can release it; anyone else gets CODIGO_P 4, exactly as for a wrong token. An
 * unreleased hold lapses after `holdMinutes`: from then on it blocks neither its slots nor rule 5
 * (checked lazily, no sweep needed) and cannot be released (4).
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

/** Settings of the embedded scheduler (env: RESERVATION_HOLD_MINUTES, MAX_DURATION_FACTOR). */
export type EmbeddedPolicy = {
  /** 0: holds never lapse. */
  holdMinutes: number;
  /** nrMinDuracao at most this many times the exam's usual duration. */
  maxDurationFactor: number;
};

/** Direct use without settings (seed tools, unit tests): no expiry, no duration bound. */
const UNBOUNDED: EmbeddedPolicy = { holdMinutes: 0, maxDurationFactor: Number.POSITIVE_INFINITY };

/** Calls without a caller (seed tools, unit tests) act for the hospital, as staff do. */
const HOSPITAL: ProcedureCallContext = { clientId: '', actsForHospital: true };

type SlotRow = { nr_seq_agenda: unknown; cd_agenda: unknown; start_iso: string; start_ms: unknown; minutes: unknown };

export function newReservationToken(): string {
  return randomBytes(16).toString('hex').toUpperCase(); // 128 random bits in 32 characters
}

export class EmbeddedScheduler implements SchedulingBackend {
  readonly name = 'embedded' as const;

  constructor(
    private readonly database: () => Promise<Knex>,
    private readonly now: () => number = Date.now,
    private readonly policy: EmbeddedPolicy = UNBOUNDED,
  ) {}

  async reserveOrRelease(request: SlotReservationRequest, context: ProcedureCallContext = HOSPITAL): Promise<ProcedureAnswer> {
    const db = await this.database();
    try {
      return await writeTransaction(db, (trx) =>
        request.ieOpcao === 'R' ? this.reserve(trx, request, context) : this.release(trx, request, context),
      );
    } catch (error) {
      if (error instanceof RequestFieldRejected || error instanceof HoldQuotaExceeded) throw error;
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

  /** Active reservations that still hold their slot at `now`: not released and not lapsed. */
  private holding<T extends Knex.QueryBuilder>(query: T, now: number, table = 'reservations'): T {
    return query.where(`${table}.status`, 'active').andWhere((q) => {
      void q.whereNull(`${table}.expires_at`).orWhere(`${table}.expires_at`, '>', now);
    }) as T;
  }

  private async reserve(trx: Knex.Transaction, request: SlotReservationRequest, context: ProcedureCallContext): Promise<ProcedureAnswer> {
    const slot = await this.lockedSlot(trx, request.nrSeqAgenda);
    if (!slot) return answer('3', false, '', MESSAGES.slotNotFound);

    const procedure = (await trx('procedures').where({ nr_seq_proc_interno: request.nrSeqProcInterno }).first()) as DbRow | undefined;
    // CODIGO_P 3 means "slot not found" (§7.2); an unknown exam is the caller's bad field.
    if (!procedure) throw new RequestFieldRejected('nrSeqProcInterno', 'unknownProcedure');
    if (toBoolean(procedure.requires_side) && !request.ieLado) throw new RequestFieldRejected('ieLado', 'sideRequired');
    const maxMinutes = this.policy.maxDurationFactor * toNumber(procedure.default_minutes);
    if (request.nrMinDuracao > maxMinutes) {
      throw new RequestFieldRejected('nrMinDuracao', 'durationTooLong', `nrMinDuracao may be at most ${maxMinutes} minutes for this exam.`);
    }

    const now = this.now();
    const start = toNumber(slot.start_ms);
    const end = start + request.nrMinDuracao * 60_000;
    if (start <= now) return answer('2', false, '', MESSAGES.unavailable);
    await this.checkQuota(trx, context, now);
    const overlapping = await this.holding(trx('reservations').where({ cd_agenda: slot.cd_agenda }), now)
      .andWhere('start_ms', '<', end)
      .andWhere('end_ms', '>', start)
      .first<DbRow | undefined>('token');
    if (overlapping) return answer('2', false, '', MESSAGES.unavailable);

    // A lapsed hold of this beneficiary and exam gives up its active-booking key, so rule 5 and the
    // unique index below no longer see it.
    const bookingKey = activeBookingKey(request.cdPessoaFisica, request.nrSeqProcInterno);
    await trx('reservations')
      .where({ active_booking: bookingKey, status: 'active' })
      .andWhere('expires_at', '<=', now)
      .update({ status: 'expired', active_booking: null });
    // The common case; simultaneous reservations on other agendas are caught by the unique key below.
    const alreadyBooked = await this.holding(
      trx('reservations').where({ cd_pessoa_fisica: request.cdPessoaFisica, nr_seq_proc_interno: request.nrSeqProcInterno }),
      now,
    ).first<DbRow | undefined>('token');
    if (alreadyBooked) return answer('5', false, '', MESSAGES.alreadyBooked);

    const token = newReservationToken();
    const expiresAt = this.policy.holdMinutes > 0 ? now + Math.round(this.policy.holdMinutes * 60_000) : undefined;
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
      active_booking: bookingKey,
      reserved_at: now,
      owner: context.owner ?? null,
      expires_at: expiresAt ?? null,
    });
    return { ...answer('0', true, token, MESSAGES.reserved), ...(expiresAt ? { expiresAt } : {}) };
  }

  /**
   * The owner's quota, counted in the transaction that reserves. On SQLite writers are serialised,
   * so the count is exact; on server databases only reservations of one agenda are serialised, so
   * parallel requests on different agendas can pass the quota by at most their own number.
   */
  private async checkQuota(trx: Knex.Transaction, context: ProcedureCallContext, now: number): Promise<void> {
    if (context.holdLimit === undefined || context.owner === undefined) return;
    const row = (await this.holding(trx('reservations').where({ owner: context.owner }), now)
      .count({ n: '*' })
      .min({ oldest: 'expires_at' })
      .first()) as DbRow | undefined;
    assertHoldQuota(toNumber(row?.n ?? 0), context.holdLimit, now, row?.oldest === null ? null : toNumber(row?.oldest));
  }

  private async release(trx: Knex.Transaction, request: SlotReservationRequest, context: ProcedureCallContext): Promise<ProcedureAnswer> {
    const slot = await this.lockedSlot(trx, request.nrSeqAgenda);
    if (!slot) return answer('3', false, '', MESSAGES.slotNotFound);
    const now = this.now();
    // Someone else's reservation, or a lapsed one, is refused exactly like a wrong token: the answer
    // tells nothing about a reservation the caller does not own.
    let mine = this.holding(trx('reservations').where({ token: request.tokenReservaCanc ?? '', nr_seq_agenda: request.nrSeqAgenda }), now);
    if (!context.actsForHospital) mine = mine.andWhere({ owner: context.owner ?? '' });
    const released = await mine.update({ status: 'released', active_booking: null, released_at: now });
    if (released !== 1) return answer('4', false, '', MESSAGES.cannotRelease);
    return answer('1', false, '', MESSAGES.released);
  }

  async listFreeSlots(query: FreeSlotQuery): Promise<FreeSlot[]> {
    const db = await this.database();
    const now = this.now();
    const from = Math.max(now + 1, query.de ? Date.parse(query.de) : 0);
    let slots = db('slots').where('start_ms', '>=', from);
    if (query.ate) slots = slots.andWhere('start_ms', '<=', Date.parse(query.ate));
    if (query.cdAgenda) slots = slots.andWhere({ cd_agenda: query.cdAgenda });
    // A slot is free when no active reservation of its agenda overlaps its own span.
    const rows = (await slots
      .whereNotExists(
        this.holding(db('reservations as r').select(db.raw('1')), now, 'r')
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
