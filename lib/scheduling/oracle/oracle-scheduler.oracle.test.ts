import oracledb, { type Connection } from 'oracledb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlotReservationRequest } from '../contract';
import { DEFAULT_PARAMETER_NAMES, type OracleSchedulingConfig } from '@/lib/config/oracle';
import { OracleScheduler } from './oracle-scheduler';
import { schedulingPool } from './pool';

/**
 * Opt-in: the adapter against a real Oracle (ORACLE_TEST_URL=oracle://user:password@host:1521/FREEPDB1,
 * see docs/production.md). It creates a small stand-in for the hospital's procedure, its table and a
 * free-slot view in that user's schema, runs the adapter's real call through a real pool, and drops
 * them at the end. Skipped (and reported as skipped) without ORACLE_TEST_URL.
 */
const url = process.env.ORACLE_TEST_URL;

const PROCEDURE = `CREATE OR REPLACE PROCEDURE IC_TEST_RESERVAR(
  NR_SEQ_AGENDA_P IN NUMBER, NR_SEQ_PROC_INTERNO_P IN NUMBER, IE_LADO_P IN VARCHAR2, NR_MIN_DURACAO_P IN NUMBER,
  IE_OPCAO_P IN VARCHAR2, TOKEN_RESERVA_CANC_P IN VARCHAR2, CD_PESSOA_FISICA_P IN NUMBER, CD_CONVENIO_P IN NUMBER,
  CD_CATEGORIA_P IN NUMBER, CD_PLANO_P IN NUMBER, CD_USUARIO_CONVENIO_P IN VARCHAR2, NM_USUARIO_P IN VARCHAR2,
  IE_RESERVADO_P OUT VARCHAR2, TOKEN_RESERVA_P OUT VARCHAR2, CODIGO_P OUT VARCHAR2, MENSAGEM_P OUT VARCHAR2) AS
  v_token IC_TEST_HORARIOS.TOKEN%TYPE;
  v_pequeno VARCHAR2(2);
BEGIN
  IE_RESERVADO_P := 'N';
  TOKEN_RESERVA_P := NULL;
  IF NM_USUARIO_P = 'dorme' THEN DBMS_SESSION.SLEEP(3); END IF;
  IF NM_USUARIO_P = 'estoura' THEN v_pequeno := 'abc'; END IF;
  BEGIN
    SELECT TOKEN INTO v_token FROM IC_TEST_HORARIOS WHERE NR_SEQ_AGENDA = NR_SEQ_AGENDA_P FOR UPDATE;
  EXCEPTION WHEN NO_DATA_FOUND THEN
    CODIGO_P := '3'; MENSAGEM_P := 'Horário (NR_SEQ_AGENDA) não encontrado.'; RETURN;
  END;
  IF IE_OPCAO_P = 'R' THEN
    IF v_token IS NOT NULL THEN CODIGO_P := '2'; MENSAGEM_P := 'Horário não está mais disponível.'; RETURN; END IF;
    v_token := RAWTOHEX(SYS_GUID());
    UPDATE IC_TEST_HORARIOS SET TOKEN = v_token, CD_PESSOA_FISICA = CD_PESSOA_FISICA_P WHERE NR_SEQ_AGENDA = NR_SEQ_AGENDA_P;
    IE_RESERVADO_P := 'S'; TOKEN_RESERVA_P := v_token; CODIGO_P := '0';
    MENSAGEM_P := CASE WHEN NM_USUARIO_P = 'mensagem-longa' THEN RPAD('ç', 8000, 'ç') ELSE 'Horário reservado com sucesso.' END;
  ELSE
    IF v_token IS NULL OR v_token <> TOKEN_RESERVA_CANC_P THEN CODIGO_P := '4'; MENSAGEM_P := 'Não foi possível cancelar a reserva.'; RETURN; END IF;
    UPDATE IC_TEST_HORARIOS SET TOKEN = NULL, CD_PESSOA_FISICA = NULL WHERE NR_SEQ_AGENDA = NR_SEQ_AGENDA_P;
    CODIGO_P := '1'; MENSAGEM_P := 'Reserva cancelada; horário liberado.';
  END IF;
END;`;

function configFrom(testUrl: string): OracleSchedulingConfig {
  const parsed = new URL(testUrl);
  return {
    connectString: `${parsed.host}${parsed.pathname}`,
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    externalAuth: false,
    clientMode: 'thin',
    procedure: 'IC_TEST_RESERVAR',
    parameterNames: DEFAULT_PARAMETER_NAMES,
    poolSize: 4,
    connectTimeoutSeconds: 10,
    callTimeoutMs: 1_500,
    queueTimeoutMs: 10_000,
    queueMax: 100,
    expireTimeMinutes: 2,
    drainSeconds: 0,
    retryAfterSeconds: 5,
    module: 'integration-console-test',
    freeSlotsView: 'IC_TEST_LIVRES',
    freeSlotsTimeZone: 'America/Sao_Paulo',
  };
}

const request = (nrSeqAgenda: number, extra: Partial<SlotReservationRequest> = {}): SlotReservationRequest => ({
  nrSeqAgenda,
  nrSeqProcInterno: 50102,
  nrMinDuracao: 30,
  ieOpcao: 'R',
  cdPessoaFisica: 123456,
  cdConvenio: 12,
  cdCategoria: 1,
  cdPlano: 3,
  cdUsuarioConvenio: '0012345678901',
  nmUsuario: 'teste-integracao',
  ...extra,
});
const context = { clientId: 'oracle-test' };

describe.skipIf(!url)('Oracle adapter against a real database (ORACLE_TEST_URL)', () => {
  const config = configFrom(url ?? 'oracle://x:y@localhost/x');
  const scheduler = new OracleScheduler(config, () => schedulingPool(config));
  let admin: Connection;

  const run = (sql: string) => admin.execute(sql, {}, { autoCommit: true });
  const dropAll = async () => {
    for (const sql of ['DROP VIEW IC_TEST_LIVRES', 'DROP PROCEDURE IC_TEST_RESERVAR', 'DROP TABLE IC_TEST_HORARIOS PURGE']) {
      await run(sql).catch(() => undefined);
    }
  };

  beforeAll(async () => {
    const pool = await schedulingPool(config);
    admin = await pool.getConnection();
    await dropAll();
    await run(
      'CREATE TABLE IC_TEST_HORARIOS (NR_SEQ_AGENDA NUMBER PRIMARY KEY, CD_AGENDA NUMBER NOT NULL, DT_AGENDA DATE NOT NULL, NR_MIN_DURACAO NUMBER NOT NULL, TOKEN VARCHAR2(32), CD_PESSOA_FISICA NUMBER)',
    );
    await run(`INSERT INTO IC_TEST_HORARIOS (NR_SEQ_AGENDA, CD_AGENDA, DT_AGENDA, NR_MIN_DURACAO)
               SELECT 1000 + LEVEL, 77, TRUNC(SYSDATE) + 2 + (7 * 60 + LEVEL * 30) / 1440, 30 FROM DUAL CONNECT BY LEVEL <= 10`);
    await run(PROCEDURE);
    await run(
      'CREATE OR REPLACE VIEW IC_TEST_LIVRES AS SELECT NR_SEQ_AGENDA, CD_AGENDA, DT_AGENDA, NR_MIN_DURACAO FROM IC_TEST_HORARIOS WHERE TOKEN IS NULL',
    );
  }, 60_000);

  afterAll(async () => {
    if (!admin) return;
    await dropAll();
    await admin.close();
    await (await schedulingPool(config)).close(0);
  });

  it('reserves (0), refuses the taken slot (2), releases (1), refuses a second release (4), and commits each', async () => {
    const reserved = await scheduler.reserveOrRelease(request(1001), context);
    expect(reserved).toEqual({
      IE_RESERVADO_P: 'S',
      TOKEN_RESERVA_P: expect.stringMatching(/^[0-9A-F]{32}$/),
      CODIGO_P: '0',
      MENSAGEM_P: 'Horário reservado com sucesso.',
    });
    // Committed: another session sees it.
    const seen = await admin.execute<unknown>(
      'SELECT TOKEN FROM IC_TEST_HORARIOS WHERE NR_SEQ_AGENDA = 1001',
      {},
      { outFormat: oracledb.OUT_FORMAT_OBJECT },
    );
    expect(seen.rows).toEqual([{ TOKEN: reserved.TOKEN_RESERVA_P }]);
    expect((await scheduler.reserveOrRelease(request(1001, { cdPessoaFisica: 654321 }), context)).CODIGO_P).toBe('2');
    const release = request(1001, { ieOpcao: 'CR', tokenReservaCanc: reserved.TOKEN_RESERVA_P, ieLado: 'E' });
    expect(await scheduler.reserveOrRelease(release, context)).toEqual({
      IE_RESERVADO_P: 'N',
      TOKEN_RESERVA_P: '',
      CODIGO_P: '1',
      MENSAGEM_P: 'Reserva cancelada; horário liberado.',
    });
    expect((await scheduler.reserveOrRelease(release, context)).CODIGO_P).toBe('4');
    expect((await scheduler.reserveOrRelease(request(999_999), context)).CODIGO_P).toBe('3');
  });

  it('reads a long Portuguese message (16 000 bytes) in full', async () => {
    const answer = await scheduler.reserveOrRelease(request(1002, { nmUsuario: 'mensagem-longa' }), context);
    expect(answer.CODIGO_P).toBe('0');
    expect(answer.MENSAGEM_P).toBe('ç'.repeat(8000));
  });

  it('a PL/SQL error (ORA-06502) is a failed call; a call over callTimeout (NJS-123) is uncertain', async () => {
    expect((await scheduler.reserveOrRelease(request(1003, { nmUsuario: 'estoura' }), context)).failure).toEqual({ kind: 'failed' });
    expect((await scheduler.reserveOrRelease(request(1003, { nmUsuario: 'dorme' }), context)).failure).toEqual({ kind: 'uncertain' });
    // The pool recovers: the next call works.
    expect((await scheduler.reserveOrRelease(request(1004), context)).CODIGO_P).toBe('0');
  });

  it('20 simultaneous reservations of one slot: the procedure’s lock lets exactly one win', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => scheduler.reserveOrRelease(request(1005, { cdPessoaFisica: 500 + i }), context)),
    );
    expect(answers.filter((answer) => answer.CODIGO_P === '0')).toHaveLength(1);
    expect(answers.filter((answer) => answer.CODIGO_P === '2')).toHaveLength(19);
  });

  it('lists free slots from the view with ISO 8601 offsets, and answers readiness', async () => {
    const slots = await scheduler.listFreeSlots({ cdAgenda: 77, limite: 3 }, context);
    // 1001 was released; 1002, 1004 and 1005 are reserved.
    expect(slots[0]?.NR_SEQ_AGENDA).toBe(1001);
    expect(slots.map((slot) => slot.NR_SEQ_AGENDA)).not.toContain(1002);
    expect(slots[0]).toEqual({
      NR_SEQ_AGENDA: 1001,
      CD_AGENDA: 77,
      DT_AGENDA: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00-0[23]:00$/),
      NR_MIN_DURACAO: 30,
    });
    await scheduler.checkReady();
  });
});
