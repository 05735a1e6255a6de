import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { migratedSqlite } from '@/lib/testing/sqlite';
import type { DirectSqliteTransaction } from '@/lib/db/direct-transaction';
import type { Executor } from '@/lib/db/precompiled';
import { RequestFieldRejected, type ProcedureCallContext } from '../backend';
import type { SlotQuery, SlotReservationRequest } from '../contract';
import { EmbeddedScheduler } from './scheduler';
import { HoldQuotaExceeded } from '../hold-quota';

const NOW = Date.parse('2026-11-22T12:00:00-03:00');
const tomorrow = (time: string) => `2026-11-23T${time}:00-03:00`;

const seed = {
  procedures: [
    { nrSeqProcInterno: 1, description: 'Ultrassom', defaultMinutes: 30, requiresSide: false },
    { nrSeqProcInterno: 2, description: 'Ressonância de joelho', defaultMinutes: 40, requiresSide: true },
  ],
  slots: [
    { nrSeqAgenda: 11, cdAgenda: 1, start: tomorrow('08:00'), minutes: 30 },
    { nrSeqAgenda: 12, cdAgenda: 1, start: tomorrow('08:30'), minutes: 30 },
    { nrSeqAgenda: 13, cdAgenda: 1, start: tomorrow('09:00'), minutes: 30 },
    { nrSeqAgenda: 21, cdAgenda: 2, start: tomorrow('08:00'), minutes: 30 },
    { nrSeqAgenda: 99, cdAgenda: 3, start: '2026-11-21T08:00:00-03:00', minutes: 30 },
  ],
};

function request(overrides: Partial<SlotReservationRequest> = {}): SlotReservationRequest {
  return {
    nrSeqAgenda: 11,
    nrSeqProcInterno: 1,
    nrMinDuracao: 30,
    ieOpcao: 'R',
    cdPessoaFisica: 500,
    cdConvenio: 1,
    cdCategoria: 1,
    cdPlano: 1,
    cdUsuarioConvenio: '123',
    nmUsuario: 'teste',
    ...overrides,
  };
}

describe('EmbeddedScheduler (the procedure contract on a real SQLite database)', () => {
  let db: Knex;
  let cleanup: () => Promise<void>;
  let scheduler: EmbeddedScheduler;

  beforeEach(async () => {
    ({ db, cleanup } = await migratedSqlite(seed));
    scheduler = new EmbeddedScheduler(
      async () => db,
      () => NOW,
    );
  });
  afterEach(() => cleanup());

  it('reserves a free slot with an unguessable token of at most 32 characters (0)', async () => {
    const first = await scheduler.reserveOrRelease(request());
    expect(first).toMatchObject({ CODIGO_P: '0', IE_RESERVADO_P: 'S' });
    expect(first.TOKEN_RESERVA_P).toMatch(/^[0-9A-F]{32}$/);
    await scheduler.reserveOrRelease(request({ ieOpcao: 'CR', tokenReservaCanc: first.TOKEN_RESERVA_P }));
    const second = await scheduler.reserveOrRelease(request());
    expect(second.TOKEN_RESERVA_P).not.toBe(first.TOKEN_RESERVA_P);
  });

  it('answers 2 for a taken slot and for a slot in the past', async () => {
    await scheduler.reserveOrRelease(request());
    expect((await scheduler.reserveOrRelease(request({ cdPessoaFisica: 501 }))).CODIGO_P).toBe('2');
    expect((await scheduler.reserveOrRelease(request({ nrSeqAgenda: 99 }))).CODIGO_P).toBe('2');
  });

  it('answers 3 for an unknown slot, for R and CR', async () => {
    expect((await scheduler.reserveOrRelease(request({ nrSeqAgenda: 404 }))).CODIGO_P).toBe('3');
    expect((await scheduler.reserveOrRelease(request({ nrSeqAgenda: 404, ieOpcao: 'CR', tokenReservaCanc: 'X' }))).CODIGO_P).toBe('3');
  });

  it('rejects an unknown procedure as a bad nrSeqProcInterno, not as a missing slot', async () => {
    await expect(scheduler.reserveOrRelease(request({ nrSeqProcInterno: 777 }))).rejects.toMatchObject({
      field: 'nrSeqProcInterno',
      code: 'unknownProcedure',
    });
  });

  it('releases only with the matching token of that slot (1), otherwise 4', async () => {
    const { TOKEN_RESERVA_P: token } = await scheduler.reserveOrRelease(request());
    expect((await scheduler.reserveOrRelease(request({ ieOpcao: 'CR', tokenReservaCanc: 'WRONG' }))).CODIGO_P).toBe('4');
    expect((await scheduler.reserveOrRelease(request({ nrSeqAgenda: 12, ieOpcao: 'CR', tokenReservaCanc: token }))).CODIGO_P).toBe('4');
    const released = await scheduler.reserveOrRelease(request({ ieOpcao: 'CR', tokenReservaCanc: token }));
    expect(released).toEqual({ CODIGO_P: '1', IE_RESERVADO_P: 'N', TOKEN_RESERVA_P: '', MENSAGEM_P: expect.any(String) });
    expect((await scheduler.reserveOrRelease(request({ ieOpcao: 'CR', tokenReservaCanc: token }))).CODIGO_P).toBe('4');
  });

  it('the unique active-booking key refuses a second active reservation the check did not see (5)', async () => {
    await scheduler.reserveOrRelease(request());
    // Hide the first reservation from the explicit check, as a concurrent uncommitted one would be.
    await db('reservations').update({ status: 'pending' });
    expect((await scheduler.reserveOrRelease(request({ nrSeqAgenda: 21 }))).CODIGO_P).toBe('5');
  });

  it('answers 5 when the beneficiary already holds an active reservation for the procedure', async () => {
    await scheduler.reserveOrRelease(request());
    expect((await scheduler.reserveOrRelease(request({ nrSeqAgenda: 21 }))).CODIGO_P).toBe('5');
    // Another procedure, or another beneficiary, is fine.
    expect((await scheduler.reserveOrRelease(request({ nrSeqAgenda: 21, cdPessoaFisica: 501 }))).CODIGO_P).toBe('0');
  });

  it('a longer duration occupies the overlapping slots of the same agenda until released', async () => {
    const { TOKEN_RESERVA_P: token } = await scheduler.reserveOrRelease(request({ nrMinDuracao: 60 }));
    const free = (await scheduler.listFreeSlots({ limite: 100 })).map((slot) => slot.NR_SEQ_AGENDA);
    expect(free).toEqual([21, 13]); // 11 and 12 are covered; the past slot 99 is never listed
    expect((await scheduler.reserveOrRelease(request({ nrSeqAgenda: 12, cdPessoaFisica: 501 }))).CODIGO_P).toBe('2');
    await scheduler.reserveOrRelease(request({ ieOpcao: 'CR', tokenReservaCanc: token }));
    expect((await scheduler.reserveOrRelease(request({ nrSeqAgenda: 12, cdPessoaFisica: 501 }))).CODIGO_P).toBe('0');
  });

  it('refuses a procedure that requires laterality without ieLado, before writing anything', async () => {
    await expect(scheduler.reserveOrRelease(request({ nrSeqProcInterno: 2 }))).rejects.toBeInstanceOf(RequestFieldRejected);
    expect(await db('reservations').count({ n: '*' }).first()).toEqual({ n: 0 });
    expect((await scheduler.reserveOrRelease(request({ nrSeqProcInterno: 2, ieLado: 'E' }))).CODIGO_P).toBe('0');
  });

  it('filters free slots by agenda and period, soonest first', async () => {
    const agenda1 = await scheduler.listFreeSlots({ cdAgenda: 1, limite: 100 });
    expect(agenda1.map((slot) => slot.NR_SEQ_AGENDA)).toEqual([11, 12, 13]);
    expect(agenda1[0]).toEqual({ NR_SEQ_AGENDA: 11, CD_AGENDA: 1, DT_AGENDA: tomorrow('08:00'), NR_MIN_DURACAO: 30 });
    const window = await scheduler.listFreeSlots({ de: tomorrow('08:15'), ate: tomorrow('08:45'), limite: 100 });
    expect(window.map((slot) => slot.NR_SEQ_AGENDA)).toEqual([12]);
  });

  it('decides simultaneous reservations of one slot one at a time: exactly one 0', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => scheduler.reserveOrRelease(request({ cdPessoaFisica: 1000 + i }))),
    );
    const codes = answers.map((a) => a.CODIGO_P).sort();
    expect(codes.filter((c) => c === '0')).toHaveLength(1);
    expect(codes.filter((c) => c === '2')).toHaveLength(19);
  });

  it('answers 9 with a generic message when the database fails', async () => {
    await db.schema.dropTable('reservations');
    const answer = await scheduler.reserveOrRelease(request());
    expect(answer).toEqual({
      CODIGO_P: '9',
      IE_RESERVADO_P: 'N',
      TOKEN_RESERVA_P: '',
      MENSAGEM_P: expect.not.stringMatching(/reservations|SQLITE/i),
    });
  });

  it('a failure recording the outcome rolls the reservation back and answers 9, even a unique violation (not 5)', async () => {
    const context: ProcedureCallContext = { clientId: '', actsForHospital: true };
    // A real unique violation inside the scheduler's (direct SQLite) transaction: a slot's key again.
    const record = async (trx: Executor) => {
      (trx as DirectSqliteTransaction).execute('INSERT INTO slots SELECT * FROM slots WHERE nr_seq_agenda = 11', []);
    };
    const answer = await scheduler.reserveOrRelease(request(), context, record);
    expect(answer).toMatchObject({ CODIGO_P: '9', IE_RESERVADO_P: 'N' });
    expect(await db('reservations').count({ n: '*' }).first()).toEqual({ n: 0 });
    expect((await scheduler.reserveOrRelease(request())).CODIGO_P).toBe('0');
  });
});

describe('EmbeddedScheduler: owners, quota, duration bound and expiring holds (issue 9)', () => {
  let db: Knex;
  let cleanup: () => Promise<void>;
  let clock: number;
  let scheduler: EmbeddedScheduler;
  const A = { clientId: 'a', owner: 'api-client:embedded:ua:a', actsForHospital: false };
  const B = { clientId: 'b', owner: 'api-client:embedded:ub:b', actsForHospital: false };
  const STAFF = { clientId: 'agenda@exemplo.com.br', owner: 'staff:1', actsForHospital: true };

  beforeEach(async () => {
    ({ db, cleanup } = await migratedSqlite(seed));
    clock = NOW;
    scheduler = new EmbeddedScheduler(
      async () => db,
      () => clock,
      { holdMinutes: 30, maxDurationFactor: 4 },
    );
  });
  afterEach(() => cleanup());

  it('refuses a release of another owner’s reservation exactly like a wrong token (4); the owner and staff may release', async () => {
    const { TOKEN_RESERVA_P: token } = await scheduler.reserveOrRelease(request(), B);
    const byA = await scheduler.reserveOrRelease(request({ ieOpcao: 'CR', tokenReservaCanc: token, cdPessoaFisica: 9 }), A);
    const wrongToken = await scheduler.reserveOrRelease(request({ ieOpcao: 'CR', tokenReservaCanc: 'WRONG' }), A);
    expect(byA).toEqual(wrongToken);
    expect(byA.CODIGO_P).toBe('4');
    expect((await scheduler.reserveOrRelease(request({ ieOpcao: 'CR', tokenReservaCanc: token }), B)).CODIGO_P).toBe('1');
    const second = await scheduler.reserveOrRelease(request(), B);
    expect((await scheduler.reserveOrRelease(request({ ieOpcao: 'CR', tokenReservaCanc: second.TOKEN_RESERVA_P }), STAFF)).CODIGO_P).toBe(
      '1',
    );
  });

  it('bounds nrMinDuracao to MAX_DURATION_FACTOR × the exam’s usual minutes, naming the field, before writing', async () => {
    await expect(scheduler.reserveOrRelease(request({ nrMinDuracao: 121 }), A)).rejects.toMatchObject({
      field: 'nrMinDuracao',
      code: 'durationTooLong',
      pointer: '#/nrMinDuracao',
      detail: 'nrMinDuracao may be at most 120 minutes for this exam.',
    });
    expect(await db('reservations').count({ n: '*' }).first()).toEqual({ n: 0 });
    expect((await scheduler.reserveOrRelease(request({ nrMinDuracao: 120 }), A)).CODIGO_P).toBe('0');
  });

  it('refuses a reservation past the owner’s quota, inside the transaction, reserving nothing', async () => {
    const limited = { ...A, holdLimit: 2 };
    expect((await scheduler.reserveOrRelease(request({ nrSeqAgenda: 11, cdPessoaFisica: 1 }), limited)).CODIGO_P).toBe('0');
    expect((await scheduler.reserveOrRelease(request({ nrSeqAgenda: 12, cdPessoaFisica: 2 }), limited)).CODIGO_P).toBe('0');
    const third = scheduler.reserveOrRelease(request({ nrSeqAgenda: 13, cdPessoaFisica: 3 }), limited);
    await expect(third).rejects.toBeInstanceOf(HoldQuotaExceeded);
    await expect(third).rejects.toMatchObject({ limit: 2, retryAfterSeconds: 30 * 60 });
    expect(await db('reservations').where({ nr_seq_agenda: 13 }).first()).toBeUndefined();
    // Another owner is not counted against A's quota.
    expect((await scheduler.reserveOrRelease(request({ nrSeqAgenda: 13, cdPessoaFisica: 3 }), { ...B, holdLimit: 2 })).CODIGO_P).toBe('0');
  });

  it('parallel reservations of one owner cannot pass the quota', async () => {
    const answers = await Promise.allSettled(
      [11, 12, 13, 21].map((slot, i) =>
        scheduler.reserveOrRelease(request({ nrSeqAgenda: slot, cdPessoaFisica: 600 + i }), { ...A, holdLimit: 2 }),
      ),
    );
    expect(answers.filter((a) => a.status === 'fulfilled' && a.value.CODIGO_P === '0')).toHaveLength(2);
    expect(answers.filter((a) => a.status === 'rejected')).toHaveLength(2);
  });

  it('a hold lapses after holdMinutes: it frees its slot and rule 5, and can no longer be released (4)', async () => {
    const held = await scheduler.reserveOrRelease(request({ nrMinDuracao: 60 }), A);
    expect(held.expiresAt).toBe(NOW + 30 * 60_000);
    clock = NOW + 30 * 60_000 - 1;
    expect((await scheduler.reserveOrRelease(request({ nrSeqAgenda: 12, cdPessoaFisica: 501 }), B)).CODIGO_P).toBe('2');
    expect((await scheduler.reserveOrRelease(request({ nrSeqAgenda: 21 }), B)).CODIGO_P).toBe('5');
    expect((await scheduler.listFreeSlots({ cdAgenda: 1, limite: 10 })).map((s) => s.NR_SEQ_AGENDA)).toEqual([13]);

    clock = NOW + 30 * 60_000;
    expect((await scheduler.listFreeSlots({ cdAgenda: 1, limite: 10 })).map((s) => s.NR_SEQ_AGENDA)).toEqual([11, 12, 13]);
    expect((await scheduler.reserveOrRelease(request({ ieOpcao: 'CR', tokenReservaCanc: held.TOKEN_RESERVA_P }), A)).CODIGO_P).toBe('4');
    // The same beneficiary and exam (rule 5) and the same slot are free to reserve again.
    expect((await scheduler.reserveOrRelease(request({ nrSeqAgenda: 21 }), B)).CODIGO_P).toBe('0');
    expect((await scheduler.reserveOrRelease(request({ nrSeqAgenda: 12, cdPessoaFisica: 501 }), B)).CODIGO_P).toBe('0');
  });

  it('holdMinutes 0 keeps a hold until it is released', async () => {
    const forever = new EmbeddedScheduler(
      async () => db,
      () => clock,
      { holdMinutes: 0, maxDurationFactor: 4 },
    );
    const held = await forever.reserveOrRelease(request(), A);
    expect(held.expiresAt).toBeUndefined();
    clock = NOW + 365 * 86_400_000;
    expect((await forever.reserveOrRelease(request({ cdPessoaFisica: 501 }), B)).CODIGO_P).toBe('2');
    expect((await forever.reserveOrRelease(request({ ieOpcao: 'CR', tokenReservaCanc: held.TOKEN_RESERVA_P }), A)).CODIGO_P).toBe('1');
  });
});

describe('EmbeddedScheduler: every slot of a window with its state (the console calendar)', () => {
  let db: Knex;
  let cleanup: () => Promise<void>;
  let clock: number;
  let scheduler: EmbeddedScheduler;
  const A = { clientId: 'a', owner: 'api-client:embedded:ua:a', actsForHospital: false };
  const B = { clientId: 'b', owner: 'api-client:embedded:ub:b', actsForHospital: false };
  const STAFF = { clientId: 'agenda@exemplo.com.br', owner: 'staff:1', actsForHospital: true };
  const DAY: SlotQuery = { de: tomorrow('00:00'), ate: tomorrow('23:59'), limite: 100 };
  const states = async (context: ProcedureCallContext, query = DAY) =>
    (await scheduler.listSlots(query, context)).map((slot) => [slot.NR_SEQ_AGENDA, slot.situacao, slot.expiraEm]);

  beforeEach(async () => {
    ({ db, cleanup } = await migratedSqlite(seed));
    clock = NOW;
    scheduler = new EmbeddedScheduler(
      async () => db,
      () => clock,
      { holdMinutes: 30, maxDurationFactor: 4 },
    );
  });
  afterEach(() => cleanup());

  it('lists free slots as livre, soonest first, with the free listing’s fields; never past slots', async () => {
    const slots = await scheduler.listSlots({ ...DAY, de: '2026-11-20T00:00:00-03:00' }, STAFF);
    expect(slots.map((slot) => slot.NR_SEQ_AGENDA)).toEqual([11, 21, 12, 13]);
    expect(slots[0]).toEqual({
      NR_SEQ_AGENDA: 11,
      CD_AGENDA: 1,
      DT_AGENDA: tomorrow('08:00'),
      NR_MIN_DURACAO: 30,
      situacao: 'livre',
      expiraEm: null,
    });
    expect(await states(STAFF, { ...DAY, cdAgenda: 2 })).toEqual([[21, 'livre', null]]);
  });

  it('lists the agendas with a future slot in the window, by code, whatever the slots’ state; never for past slots alone', async () => {
    const agendas = async (de: string, ate: string) => (await scheduler.listAgendas({ de, ate })).map((agenda) => agenda.CD_AGENDA);
    expect(await agendas('2026-11-20T00:00:00-03:00', tomorrow('23:59'))).toEqual([1, 2]);
    expect(await agendas(tomorrow('08:15'), tomorrow('23:59'))).toEqual([1]);
    // A taken slot still puts its agenda on the calendar.
    await scheduler.reserveOrRelease(request({ nrSeqAgenda: 21 }), A);
    expect(await agendas(tomorrow('08:00'), tomorrow('08:00'))).toEqual([1, 2]);
    expect(await agendas('2026-11-21T00:00:00-03:00', '2026-11-21T23:59:00-03:00')).toEqual([]);
  });

  it('a hold is reservado, with its expiry, for its owner and staff, and ocupado for anyone else; what it overlaps is ocupado', async () => {
    await scheduler.reserveOrRelease(request({ nrMinDuracao: 60 }), A); // 11, covering 12 too
    const expires = new Date(NOW + 30 * 60_000).toISOString();
    expect(await states(A)).toEqual([
      [11, 'reservado', expires],
      [21, 'livre', null],
      [12, 'ocupado', null],
      [13, 'livre', null],
    ]);
    expect(await states(STAFF)).toContainEqual([11, 'reservado', expires]);
    expect(await states(B)).toEqual([
      [11, 'ocupado', null],
      [21, 'livre', null],
      [12, 'ocupado', null],
      [13, 'livre', null],
    ]);
    // The free listing agrees: what is not livre is not listed.
    expect((await scheduler.listFreeSlots({ limite: 100 })).map((slot) => slot.NR_SEQ_AGENDA)).toEqual([21, 13]);
  });

  it('a released or lapsed hold leaves its slots livre again', async () => {
    const { TOKEN_RESERVA_P: token } = await scheduler.reserveOrRelease(request(), A);
    await scheduler.reserveOrRelease(request({ nrSeqAgenda: 21, cdPessoaFisica: 501 }), B);
    await scheduler.reserveOrRelease(request({ ieOpcao: 'CR', tokenReservaCanc: token }), A);
    expect(await states(A)).toEqual([
      [11, 'livre', null],
      [21, 'ocupado', null],
      [12, 'livre', null],
      [13, 'livre', null],
    ]);
    clock = NOW + 31 * 60_000;
    expect((await states(A)).every(([, state]) => state === 'livre')).toBe(true);
  });
});

describe('EmbeddedScheduler beside another writer on the same SQLite file', () => {
  it('waits for another process’s write instead of failing the reservation (no SQLITE_BUSY_SNAPSHOT)', async () => {
    const { db, cleanup } = await migratedSqlite(seed);
    try {
      await db.raw('PRAGMA journal_mode = WAL');
      await db.raw('PRAGMA busy_timeout = 5000');
      const file = (db.client as { config: { connection: { filename: string } } }).config.connection.filename;
      // Another process holds the write lock for 300 ms, as a second writer on the file would.
      const other = spawn(
        process.execPath,
        [
          '-e',
          `const D = require('better-sqlite3'); const d = new D(process.argv[1]); d.exec('BEGIN IMMEDIATE');
           d.exec("INSERT INTO app_meta (meta_key, meta_value) VALUES ('outro-escritor', 'x')");
           process.stdout.write('locked\\n'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300); d.exec('COMMIT');`,
          file,
        ],
        { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
      );
      await new Promise((resolve) => other.stdout.once('data', resolve));
      const answer = await new EmbeddedScheduler(
        () => Promise.resolve(db),
        () => NOW,
      ).reserveOrRelease(request());
      await new Promise((resolve) => other.once('exit', resolve));
      expect(answer.CODIGO_P).toBe('0');
    } finally {
      await cleanup();
    }
  });
});
