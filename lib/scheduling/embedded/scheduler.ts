import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { isUniqueViolation, lockForUpdate, toBoolean, toNumber } from '@/lib/db/dialect';
import { fastWriteTransaction, GroupCommitFailed } from '@/lib/db/direct-transaction';
import { precompiled, precompiledInsert, type Executor } from '@/lib/db/precompiled';
import { activeBookingKey } from '../active-booking';
import { log, redactError } from '@/lib/log';
import type { Agenda, AgendaQuery, FreeSlot, FreeSlotQuery, Procedure, Slot, SlotQuery, SlotReservationRequest } from '../contract';
import {
  answer,
  RequestFieldRejected,
  type ProcedureAnswer,
  type ProcedureCallContext,
  type RecordAnswer,
  type SchedulingBackend,
} from '../backend';
import { assertHoldQuota, HoldQuotaExceeded } from '../hold-quota';
import { holding, HOSPITAL, type SlotRow } from './holds';
import { listAgendas, listFreeSlots, listProcedures, listSlots } from './listings';

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

const RESERVATION_COLUMNS = [
  'token',
  'nr_seq_agenda',
  'cd_agenda',
  'start_ms',
  'end_ms',
  'nr_seq_proc_interno',
  'cd_pessoa_fisica',
  'ie_lado',
  'cd_convenio',
  'cd_categoria',
  'cd_plano',
  'cd_usuario_convenio',
  'nm_usuario',
  'status',
  'active_booking',
  'reserved_at',
  'owner',
  'expires_at',
] as const;

/** The statements of a reservation and a release, built once per dialect (lib/db/precompiled.ts). */
const SQL = {
  slot: precompiled<[number]>(1, (db, agenda) => db('slots').where({ nr_seq_agenda: agenda }).first()),
  // No .first(): Oracle refuses FOR UPDATE inside the ROWNUM subquery knex writes for a limit.
  lockAgenda: precompiled<[unknown]>(1, (db, agenda) => lockForUpdate(db, db('agendas').where({ cd_agenda: agenda }).select('cd_agenda'))),
  procedure: precompiled<[number]>(1, (db, procedure) => db('procedures').where({ nr_seq_proc_interno: procedure }).first()),
  ownerHolds: precompiled<[string, number]>(2, (db, owner, now) =>
    holding(db('reservations').where({ owner }), now).count({ n: '*' }).min({ oldest: 'expires_at' }).first(),
  ),
  overlapping: precompiled<[unknown, number, number, number]>(4, (db, agenda, now, end, start) =>
    holding(db('reservations').where({ cd_agenda: agenda }), now)
      .andWhere('start_ms', '<', end)
      .andWhere('end_ms', '>', start)
      .first('token'),
  ),
  expireLapsedBooking: precompiled<[string, number]>(2, (db, booking, now) =>
    db('reservations')
      .where({ active_booking: booking, status: 'active' })
      .andWhere('expires_at', '<=', now)
      .update({ status: 'expired', active_booking: null }),
  ),
  activeBookingOf: precompiled<[number, number, number]>(3, (db, person, procedure, now) =>
    holding(db('reservations').where({ cd_pessoa_fisica: person, nr_seq_proc_interno: procedure }), now).first('token'),
  ),
  insertReservation: precompiledInsert('reservations', RESERVATION_COLUMNS),
  release: precompiled<[string, number, number, number]>(4, (db, token, agenda, now, releasedAt) =>
    holding(db('reservations').where({ token, nr_seq_agenda: agenda }), now).update({
      status: 'released',
      active_booking: null,
      released_at: releasedAt,
    }),
  ),
  releaseOwn: precompiled<[string, number, number, string, number]>(5, (db, token, agenda, now, owner, releasedAt) =>
    holding(db('reservations').where({ token, nr_seq_agenda: agenda }), now)
      .andWhere({ owner })
      .update({ status: 'released', active_booking: null, released_at: releasedAt }),
  ),
};

function newReservationToken(): string {
  return randomBytes(16).toString('hex').toUpperCase(); // 128 random bits in 32 characters
}

/**
 * A failure writing the service's rows (audit, reservation log) in the scheduler's transaction. It
 * rolls the reservation back and answers 9; a unique violation in it is not the booking race (5).
 */
class OutcomeNotRecorded extends Error {}

export class EmbeddedScheduler implements SchedulingBackend {
  readonly name = 'embedded' as const;
  readonly enforcesHoldQuota = true;
  readonly recordsInItsTransaction = true;

  constructor(
    private readonly database: () => Promise<Knex>,
    private readonly now: () => number = Date.now,
    private readonly policy: EmbeddedPolicy = UNBOUNDED,
  ) {}

  /** Decides in one write transaction, and writes the service's rows for the answer (`record`) in it. */
  async reserveOrRelease(
    request: SlotReservationRequest,
    context: ProcedureCallContext = HOSPITAL,
    record?: RecordAnswer,
  ): Promise<ProcedureAnswer> {
    const db = await this.database();
    try {
      return await fastWriteTransaction(db, async (trx) => {
        const decided = request.ieOpcao === 'R' ? await this.reserve(trx, request, context) : await this.release(trx, request, context);
        if (record) {
          await record(trx, decided).catch((error: unknown) => {
            throw new OutcomeNotRecorded('recording the outcome failed', { cause: error });
          });
        }
        return decided;
      });
    } catch (error) {
      if (error instanceof RequestFieldRejected || error instanceof HoldQuotaExceeded) throw error;
      // The race the check in reserve() cannot see: the unique active-booking key refused it.
      if (isUniqueViolation(error)) return answer('5', false, '', MESSAGES.alreadyBooked);
      // The database's own error, not the wrapper's: what an operator needs to find the cause.
      const cause = error instanceof OutcomeNotRecorded || error instanceof GroupCommitFailed ? (error.cause ?? error) : error;
      log.error('scheduler.embedded_failure', {
        option: request.ieOpcao,
        recording: error instanceof OutcomeNotRecorded,
        ...redactError(cause),
      });
      return answer('9', false, '', MESSAGES.internal);
    }
  }

  private async lockedSlot(trx: Executor, nrSeqAgenda: number): Promise<SlotRow | undefined> {
    const slot = (await SQL.slot.first(trx, nrSeqAgenda)) as SlotRow | undefined;
    if (slot) await SQL.lockAgenda.rows(trx, slot.cd_agenda);
    return slot;
  }

  private async reserve(trx: Executor, request: SlotReservationRequest, context: ProcedureCallContext): Promise<ProcedureAnswer> {
    const slot = await this.lockedSlot(trx, request.nrSeqAgenda);
    if (!slot) return answer('3', false, '', MESSAGES.slotNotFound);

    const procedure = await SQL.procedure.first(trx, request.nrSeqProcInterno);
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
    if (await SQL.overlapping.first(trx, slot.cd_agenda, now, end, start)) return answer('2', false, '', MESSAGES.unavailable);

    // A lapsed hold of this beneficiary and exam gives up its active-booking key, so rule 5 and the
    // unique index below no longer see it.
    const bookingKey = activeBookingKey(request.cdPessoaFisica, request.nrSeqProcInterno);
    await SQL.expireLapsedBooking.run(trx, bookingKey, now);
    // The common case; simultaneous reservations on other agendas are caught by the unique key below.
    if (await SQL.activeBookingOf.first(trx, request.cdPessoaFisica, request.nrSeqProcInterno, now)) {
      return answer('5', false, '', MESSAGES.alreadyBooked);
    }

    const token = newReservationToken();
    const expiresAt = this.policy.holdMinutes > 0 ? now + Math.round(this.policy.holdMinutes * 60_000) : undefined;
    const row: Record<(typeof RESERVATION_COLUMNS)[number], unknown> = {
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
    };
    await SQL.insertReservation.run(trx, row);
    return { ...answer('0', true, token, MESSAGES.reserved), ...(expiresAt ? { expiresAt } : {}) };
  }

  /**
   * The owner's quota, counted in the transaction that reserves. On SQLite writers are serialised,
   * so the count is exact; on server databases only reservations of one agenda are serialised, so
   * parallel requests on different agendas can pass the quota by at most their own number.
   */
  private async checkQuota(trx: Executor, context: ProcedureCallContext, now: number): Promise<void> {
    if (context.holdLimit === undefined || context.owner === undefined) return;
    const row = await SQL.ownerHolds.first(trx, context.owner, now);
    const oldest = row?.oldest === null || row?.oldest === undefined ? null : toNumber(row.oldest);
    assertHoldQuota(toNumber(row?.n ?? 0), context.holdLimit, now, oldest);
  }

  private async release(trx: Executor, request: SlotReservationRequest, context: ProcedureCallContext): Promise<ProcedureAnswer> {
    const slot = await this.lockedSlot(trx, request.nrSeqAgenda);
    if (!slot) return answer('3', false, '', MESSAGES.slotNotFound);
    const now = this.now();
    // Someone else's reservation, or a lapsed one, is refused exactly like a wrong token: the answer
    // tells nothing about a reservation the caller does not own.
    const token = request.tokenReservaCanc ?? '';
    const released = context.actsForHospital
      ? await SQL.release.run(trx, token, request.nrSeqAgenda, now, now)
      : await SQL.releaseOwn.run(trx, token, request.nrSeqAgenda, now, context.owner ?? '', now);
    if (released !== 1) return answer('4', false, '', MESSAGES.cannotRelease);
    return answer('1', false, '', MESSAGES.released);
  }

  // The read side (free slots, the calendar's grid and agendas, the exams) is in listings.ts.
  async listFreeSlots(query: FreeSlotQuery): Promise<FreeSlot[]> {
    return listFreeSlots(await this.database(), this.now(), query);
  }

  async listAgendas(query: AgendaQuery): Promise<Agenda[]> {
    return listAgendas(await this.database(), this.now(), query);
  }

  async listSlots(query: SlotQuery, context: ProcedureCallContext = HOSPITAL): Promise<Slot[]> {
    return listSlots(await this.database(), this.now(), query, context);
  }

  async listProcedures(): Promise<Procedure[]> {
    return listProcedures(await this.database());
  }
}
