import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import oracledb from 'oracledb';
import { closeDb } from '@/lib/db/handle';
import { listAudit } from '@/lib/audit/store';
import { Refusal } from '@/lib/errors/refusal';
import { problemOf, refusalHeaders, refusalStatus } from '@/lib/http/errors';
import type { ApiClientPrincipal } from '@/lib/auth/principal';
import type { SlotReservationRequest } from '../contract';
import { INTERNAL_ERROR_MESSAGE, listAgendas, listFreeSlots, reserveOrRelease, UNAVAILABLE_MESSAGE, UNCERTAIN_MESSAGE } from '../service';
import { DEFAULT_PARAMETER_NAMES, parseParameterNames, type OracleSchedulingConfig } from '@/lib/config/oracle';
import { FakeOraclePool, oracleError, outBinds } from './testing/fake-oracle';
import { OracleScheduler } from './oracle-scheduler';
import { schedulingPool } from './pool';
import type { SchedulingBackend } from '../backend';
import { resetEnv, logTo } from '@/lib/testing/hooks';

/** The back-end the service uses here: the Oracle adapter, on each case's fake pool. */
const inUse = vi.hoisted(() => ({ backend: undefined as SchedulingBackend | undefined }));
vi.mock('../backends', () => ({ schedulingBackend: () => inUse.backend }));

/**
 * The Oracle adapter against a fake pool that checks what is sent and plays every answer and
 * failure, through the real reservation service (its HTTP mapping and the audit trail, on a
 * throw-away embedded database).
 */
const config: OracleSchedulingConfig = {
  connectString: 'db.hospital.local:1521/TASYPRD',
  user: 'integracao',
  password: 'x',
  externalAuth: false,
  clientMode: 'thin',
  procedure: 'TASY.AGENDA_INTEGRACAO_PCK.RESERVAR_HORARIO',
  parameterNames: DEFAULT_PARAMETER_NAMES,
  poolSize: 2,
  connectTimeoutSeconds: 1,
  callTimeoutMs: 5_000,
  queueTimeoutMs: 1_000,
  queueMax: 10,
  expireTimeMinutes: 2,
  drainSeconds: 0,
  retryAfterSeconds: 7,
  module: 'integration-console',
  freeSlotsTimeZone: 'America/Sao_Paulo',
};

const EXPECTED_BLOCK = `BEGIN
  TASY.AGENDA_INTEGRACAO_PCK.RESERVAR_HORARIO(
    NR_SEQ_AGENDA_P => :b_nrseqagenda,
    NR_SEQ_PROC_INTERNO_P => :b_nrseqprocinterno,
    IE_LADO_P => :b_ielado,
    NR_MIN_DURACAO_P => :b_nrminduracao,
    IE_OPCAO_P => :b_ieopcao,
    TOKEN_RESERVA_CANC_P => :b_tokenreservacanc,
    CD_PESSOA_FISICA_P => :b_cdpessoafisica,
    CD_CONVENIO_P => :b_cdconvenio,
    CD_CATEGORIA_P => :b_cdcategoria,
    CD_PLANO_P => :b_cdplano,
    CD_USUARIO_CONVENIO_P => :b_cdusuarioconvenio,
    NM_USUARIO_P => :b_nmusuario,
    IE_RESERVADO_P => :b_ie_reservado_p,
    TOKEN_RESERVA_P => :b_token_reserva_p,
    CODIGO_P => :b_codigo_p,
    MENSAGEM_P => :b_mensagem_p
  );
END;`;

const principal: ApiClientPrincipal = {
  kind: 'api-client',
  issuer: 'embedded',
  scopes: ['webhooks', 'scheduling'],
  clientId: 'portal-parceiro',
  usuarioId: '7d4f1c2a-3b5e-4c6d-8e9f-0a1b2c3d4e5f',
  sistemaOrigem: 3,
};

const reserve: SlotReservationRequest = {
  nrSeqAgenda: 4455667,
  nrSeqProcInterno: 50102,
  nrMinDuracao: 30,
  ieOpcao: 'R',
  cdPessoaFisica: 7654321,
  cdConvenio: 12,
  cdCategoria: 1,
  cdPlano: 3,
  cdUsuarioConvenio: '0012345678901',
  nmUsuario: 'portal-parceiro',
};
const release: SlotReservationRequest = { ...reserve, ieOpcao: 'CR', tokenReservaCanc: 'A1B2C3D4E5F60718293A4B5C6D7E8F90', ieLado: 'D' };

let fake: FakeOraclePool;
let logged: string[];

function useOracle(pool: FakeOraclePool, overrides: Partial<OracleSchedulingConfig> = {}) {
  inUse.backend = new OracleScheduler({ ...config, ...overrides }, async () => pool.asPool());
}

beforeAll(() => {
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-oracle-unit-'));
  delete process.env.DATABASE_URL;
  delete process.env.LOG_SILENT;
  resetEnv();
});
afterAll(async () => {
  await closeDb();
  inUse.backend = undefined;
});
beforeEach(() => {
  fake = new FakeOraclePool();
  useOracle(fake);
  logged = [];
  logTo({ write: (line: string) => void logged.push(line) });
});
afterEach(() => {
  vi.restoreAllMocks();
  logTo(undefined);
  // Bind values (patient and card numbers) never reach the log, whatever happened.
  for (const line of logged) {
    expect(line).not.toContain('7654321');
    expect(line).not.toContain('0012345678901');
  }
});

/** A CODIGO_P 9 is the service's refusal: its status, body and headers as the API answers them (lib/http/errors.ts). */
async function failureOf(outcome: Promise<unknown>) {
  const error = await outcome.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(Refusal);
  const refusal = error as Refusal;
  return { status: refusalStatus(refusal), body: refusal.options.body, headers: refusalHeaders(refusal) };
}

describe('the call the adapter sends', () => {
  it('is one anonymous block in named notation, with every input bound and NULL for what was not sent', async () => {
    fake.play(outBinds('0', 'S', 'TK0001', 'Horário reservado.'));
    await reserveOrRelease(principal, reserve);

    expect(fake.executed).toHaveLength(1);
    const [call] = fake.executed;
    expect(call?.sql).toBe(EXPECTED_BLOCK);
    const IN = { dir: oracledb.BIND_IN };
    expect(call?.binds).toEqual({
      b_nrseqagenda: { ...IN, type: oracledb.NUMBER, val: 4455667 },
      b_nrseqprocinterno: { ...IN, type: oracledb.NUMBER, val: 50102 },
      b_ielado: { ...IN, type: oracledb.STRING, val: null },
      b_nrminduracao: { ...IN, type: oracledb.NUMBER, val: 30 },
      b_ieopcao: { ...IN, type: oracledb.STRING, val: 'R' },
      b_tokenreservacanc: { ...IN, type: oracledb.STRING, val: null },
      b_cdpessoafisica: { ...IN, type: oracledb.NUMBER, val: 7654321 },
      b_cdconvenio: { ...IN, type: oracledb.NUMBER, val: 12 },
      b_cdcategoria: { ...IN, type: oracledb.NUMBER, val: 1 },
      b_cdplano: { ...IN, type: oracledb.NUMBER, val: 3 },
      b_cdusuarioconvenio: { ...IN, type: oracledb.STRING, val: '0012345678901' },
      b_nmusuario: { ...IN, type: oracledb.STRING, val: 'portal-parceiro' },
      b_ie_reservado_p: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 32 },
      b_token_reserva_p: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 4000 },
      b_codigo_p: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 64 },
      b_mensagem_p: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 32767 },
    });
    // The commit travels with the call: one round trip.
    expect(call?.options).toEqual({ autoCommit: true });
    expect(call?.tags).toEqual({ module: 'integration-console', action: 'reservar', clientId: 'portal-parceiro', callTimeout: 5_000 });
    expect(fake.closed).toEqual([undefined]);
  });

  it('sends ieLado and tokenReservaCanc on a release, tagged as such', async () => {
    fake.play(outBinds('1', 'N', null, 'Reserva cancelada.'));
    await reserveOrRelease(principal, release);
    const [call] = fake.executed;
    expect(call?.binds.b_ielado).toMatchObject({ val: 'D' });
    expect(call?.binds.b_ieopcao).toMatchObject({ val: 'CR' });
    expect(call?.binds.b_tokenreservacanc).toMatchObject({ val: 'A1B2C3D4E5F60718293A4B5C6D7E8F90' });
    expect(call?.tags.action).toBe('cancelar-reserva');
  });

  it('uses the configured parameter names', async () => {
    const names = parseParameterNames('nrSeqAgenda=NR_SEQ_HORARIO_P,MENSAGEM_P=DS_MENSAGEM_P');
    if (typeof names === 'string') throw new Error(names);
    useOracle(fake, { procedure: 'RESERVAR_HORARIO', parameterNames: names });
    fake.play(outBinds('0', 'S', 'TK', 'ok'));
    await reserveOrRelease(principal, reserve);
    const sql = fake.executed[0]?.sql ?? '';
    expect(sql).toMatch(/^BEGIN\n {2}RESERVAR_HORARIO\(\n {4}NR_SEQ_HORARIO_P => :b_nrseqagenda,/);
    expect(sql).toContain('DS_MENSAGEM_P => :b_mensagem_p\n  );\nEND;');
    expect(sql).not.toContain('NR_SEQ_AGENDA_P');
  });
});

describe('every answer of the procedure (§3.1, §7.2)', () => {
  const cases = [
    { codigo: '0', reserved: 'S', token: 'TK0001', status: 200 },
    { codigo: '1', reserved: 'N', token: null, status: 200 },
    { codigo: '2', reserved: 'N', token: null, status: 409 },
    { codigo: '3', reserved: 'N', token: null, status: 404 },
    { codigo: '4', reserved: 'N', token: null, status: 409 },
    { codigo: '5', reserved: 'N', token: null, status: 409 },
  ];
  for (const { codigo, reserved, token, status } of cases) {
    it(`CODIGO_P ${codigo} → ${status} with the procedure's own message`, async () => {
      fake.play(outBinds(codigo, reserved, token, `Mensagem do procedimento ${codigo}: não há horário às 10h`));
      const outcome = await reserveOrRelease(principal, codigo === '1' ? release : reserve);
      expect(outcome.status).toBe(status);
      // Oracle answers '' as NULL; the contract's empty token is a string again.
      expect(outcome.body).toEqual({
        IE_RESERVADO_P: reserved,
        TOKEN_RESERVA_P: token ?? '',
        CODIGO_P: codigo,
        MENSAGEM_P: `Mensagem do procedimento ${codigo}: não há horário às 10h`,
      });
    });
  }

  it('CODIGO_P 9 → 500 with a generic message instead of the database text, no Retry-After', async () => {
    fake.play(outBinds('9', 'N', null, 'ORA-01400: cannot insert NULL into ("TASY"."AGENDA_PACIENTE"."CD_PESSOA_FISICA")'));
    const outcome = await failureOf(reserveOrRelease(principal, reserve));
    expect(outcome).toEqual({
      status: 500,
      headers: {},
      body: { IE_RESERVADO_P: 'N', TOKEN_RESERVA_P: '', CODIGO_P: '9', MENSAGEM_P: INTERNAL_ERROR_MESSAGE },
    });
  });

  it('accepts a code padded by a CHAR column', async () => {
    fake.play(outBinds('2 ', 'N ', null, 'Horário indisponível'));
    expect((await reserveOrRelease(principal, reserve)).body).toMatchObject({ CODIGO_P: '2', IE_RESERVADO_P: 'N' });
  });

  for (const [label, played] of [
    ['an unknown CODIGO_P', outBinds('7', 'N', null, 'x')],
    ['a NULL CODIGO_P', outBinds(null, 'N', null, 'x')],
    ['IE_RESERVADO_P outside S/N', outBinds('1', 'X', null, 'x')],
    ['CODIGO_P 0 without a token', outBinds('0', 'S', null, 'x')],
  ] as const) {
    it(`${label} → 502, and nothing is recorded as reserved`, async () => {
      fake.play(played);
      const error = await reserveOrRelease(principal, reserve).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Refusal);
      expect(problemOf(error as Refusal).status).toBe(502);
    });
  }
});

describe('failures', () => {
  const unavailable = { IE_RESERVADO_P: 'N', TOKEN_RESERVA_P: '', CODIGO_P: '9', MENSAGEM_P: UNAVAILABLE_MESSAGE };
  const uncertain = { IE_RESERVADO_P: 'N', TOKEN_RESERVA_P: '', CODIGO_P: '9', MENSAGEM_P: UNCERTAIN_MESSAGE };

  for (const code of ['NJS-040', 'NJS-076', 'NJS-500', 'NJS-503', 'NJS-510', 'NJS-064', 'ORA-12541', 'ORA-01017']) {
    it(`${code} while getting a connection → 500, CODIGO_P 9, Retry-After, nothing sent`, async () => {
      fake.acquireError = oracleError(code);
      const outcome = await failureOf(reserveOrRelease(principal, reserve));
      expect(outcome).toEqual({ status: 500, body: unavailable, headers: { 'Retry-After': '7' } });
      expect(fake.executed).toHaveLength(0);
    });
  }

  for (const code of ['NJS-123', 'NJS-500', 'NJS-521', 'DPI-1080', 'ORA-03113', 'ORA-03114', 'ORA-00028']) {
    it(`${code} during the call → 500 saying the outcome is uncertain; connection dropped; audited as uncertain; not retried`, async () => {
      fake.play({ error: oracleError(code) });
      const outcome = await failureOf(reserveOrRelease(principal, reserve));
      expect(outcome).toEqual({ status: 500, body: uncertain, headers: {} });
      expect(fake.executed).toHaveLength(1);
      expect(fake.closed).toEqual([{ drop: true }]);
      const [entry] = await listAudit({ acao: 'slot.reserve', limite: 1 });
      expect(entry?.resultado).toBe('CODIGO_P=9 uncertain');
      expect(entry?.depois).toMatchObject({ CODIGO_P: '9', falha: 'uncertain', MENSAGEM_P: UNCERTAIN_MESSAGE });
    });
  }

  for (const code of ['ORA-06502', 'ORA-06550', 'ORA-04068', 'ORA-20001']) {
    it(`${code} from the database → 500 with the generic message; connection goes back to the pool`, async () => {
      fake.play({ error: oracleError(code, 'PL/SQL: numeric or value error: 7654321') });
      const outcome = await failureOf(reserveOrRelease(principal, reserve));
      expect(outcome).toEqual({ status: 500, body: { ...uncertain, MENSAGEM_P: INTERNAL_ERROR_MESSAGE }, headers: {} });
      expect(fake.closed).toEqual([undefined]);
      const [entry] = await listAudit({ acao: 'slot.reserve', limite: 1 });
      expect(entry?.resultado).toBe('CODIGO_P=9 failed');
    });
  }

  it('logs the error code only, never the driver text', async () => {
    fake.play({ error: oracleError('ORA-20001', 'Paciente 7654321 carteira 0012345678901 já agendado') });
    await reserveOrRelease(principal, reserve).catch(() => undefined);
    const line = logged.find((text) => text.includes('scheduling.oracle_call_failed'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({ failure: 'failed', errorCode: 'ORA-20001' });
    expect(line).not.toContain('Paciente');
  });

  it('a database that does not answer at all (silent listener) fails within connectTimeout through the real driver', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(3591, '127.0.0.1', resolve));
    const realConfig = { ...config, connectString: '127.0.0.1:3591/FREEPDB1', connectTimeoutSeconds: 1, queueTimeoutMs: 5_000 };
    const holderPool = globalThis as typeof globalThis & { __oracleSchedulingPool?: Promise<unknown> };
    try {
      inUse.backend = new OracleScheduler(realConfig, () => schedulingPool(realConfig));
      const started = Date.now();
      const outcome = await failureOf(reserveOrRelease(principal, reserve));
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(outcome).toEqual({ status: 500, body: unavailable, headers: { 'Retry-After': '7' } });
      expect(JSON.parse(logged.find((text) => text.includes('oracle_call_failed')) ?? '{}')).toMatchObject({ errorCode: 'NJS-510' });
    } finally {
      await (await (holderPool.__oracleSchedulingPool as Promise<{ close(n: number): Promise<void> }> | undefined))?.close(0);
      holderPool.__oracleSchedulingPool = undefined;
      silent.close();
    }
  });
});

describe('free-slot listing and readiness', () => {
  it('answers 501 when no view is configured', async () => {
    const error = await listFreeSlots({ limite: 10 }, principal).catch((e: unknown) => e);
    expect(problemOf(error as Refusal)).toMatchObject({ status: 501 });
    expect(fake.executed).toHaveLength(0);
  });

  it('runs one fixed query on the configured view, with the filters as binds', async () => {
    useOracle(fake, { freeSlotsView: 'TASY.VW_HORARIOS_LIVRES' });
    fake.play({ rows: [{ NR_SEQ_AGENDA: 4455667, CD_AGENDA: 12, DT_AGENDA_ISO: '2026-05-04T10:00:00-03:00', NR_MIN_DURACAO: 30 }] });
    const slots = await listFreeSlots({ limite: 5, cdAgenda: 12, de: '2099-01-01T10:00:00-03:00' }, principal);
    expect(slots).toEqual([{ NR_SEQ_AGENDA: 4455667, CD_AGENDA: 12, DT_AGENDA: '2026-05-04T10:00:00-03:00', NR_MIN_DURACAO: 30 }]);
    const [call] = fake.executed;
    expect(call?.sql).toContain('FROM TASY.VW_HORARIOS_LIVRES\n');
    expect(call?.binds).toEqual({ tz: 'America/Sao_Paulo', de: '2099-01-01T13:00:00.000', ate: null, cd_agenda: 12, limite: 5 });
    expect(call?.tags.action).toBe('slots-livres');
  });

  it('lists a window’s agendas from the view’s free slots, once each, by code (the calendar’s day view)', async () => {
    useOracle(fake, { freeSlotsView: 'TASY.VW_HORARIOS_LIVRES' });
    const row = (slot: number, agenda: number) => ({
      NR_SEQ_AGENDA: slot,
      CD_AGENDA: agenda,
      DT_AGENDA_ISO: '2099-01-01T10:00:00-03:00',
      NR_MIN_DURACAO: 30,
    });
    fake.play({ rows: [row(1, 30), row(2, 12), row(3, 30), row(4, 7)] });
    const agendas = await listAgendas({ de: '2099-01-01T00:00:00-03:00', ate: '2099-01-01T23:59:59-03:00' }, principal);
    expect(agendas).toEqual([{ CD_AGENDA: 7 }, { CD_AGENDA: 12 }, { CD_AGENDA: 30 }]);
    expect(fake.executed[0]?.binds).toMatchObject({
      de: '2099-01-01T03:00:00.000',
      ate: '2099-01-02T02:59:59.000',
      cd_agenda: null,
      limite: 2000,
    });
  });

  it('answers 503 with Retry-After when no connection can be had', async () => {
    useOracle(fake, { freeSlotsView: 'VW_HORARIOS_LIVRES' });
    fake.acquireError = oracleError('NJS-040');
    const error = await listFreeSlots({ limite: 5 }, principal).catch((e: unknown) => e);
    expect(problemOf(error as Refusal)).toMatchObject({ status: 503, extra: { headers: { 'Retry-After': '7' } } });
  });

  it('readiness pings a pooled connection', async () => {
    const backend = new OracleScheduler(config, async () => fake.asPool());
    await backend.checkReady();
    expect(fake.pings).toBe(1);
    fake.acquireError = oracleError('NJS-503');
    await expect(backend.checkReady()).rejects.toThrow('NJS-503');
  });
});
