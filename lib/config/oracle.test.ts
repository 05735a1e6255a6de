import { afterEach, describe, expect, it } from 'vitest';
import { env } from '@/lib/config/env';
import { DEFAULT_PARAMETER_NAMES } from './oracle';
import { resetEnv } from '@/lib/testing/hooks';

/** The Oracle settings through the app's one configuration entry point, env(). */
const saved = { ...process.env };

function configure(vars: Record<string, string>) {
  for (const key of Object.keys(process.env)) if (key.startsWith('ORACLE_') || key === 'SCHEDULING_BACKEND') delete process.env[key];
  Object.assign(process.env, vars);
  resetEnv();
}

afterEach(() => {
  process.env = { ...saved };
  resetEnv();
});

const minimal = {
  SCHEDULING_BACKEND: 'oracle',
  ORACLE_CONNECT_STRING: 'db.hospital.local:1521/TASYPRD',
  ORACLE_USER: 'integracao',
  ORACLE_PASSWORD: 'segredo',
  ORACLE_PROCEDURE: 'TASY.AGENDA_PCK.RESERVAR_HORARIO',
};

describe('Oracle scheduling configuration', () => {
  it('is required as a whole when SCHEDULING_BACKEND=oracle, each missing variable named', () => {
    configure({ SCHEDULING_BACKEND: 'oracle' });
    expect(() => env()).toThrow(
      /ORACLE_CONNECT_STRING: is required[\s\S]*ORACLE_PROCEDURE: is required[\s\S]*ORACLE_USER[\s\S]*ORACLE_PASSWORD/,
    );
  });

  it('parses a minimal setting with safe defaults (fixed pool, timeouts always set)', () => {
    configure(minimal);
    expect(env().oracle).toMatchObject({
      procedure: 'TASY.AGENDA_PCK.RESERVAR_HORARIO',
      parameterNames: DEFAULT_PARAMETER_NAMES,
      poolSize: 4,
      connectTimeoutSeconds: 10,
      callTimeoutMs: 20_000,
      queueTimeoutMs: 5_000,
      queueMax: 100,
      expireTimeMinutes: 2,
      clientMode: 'thin',
    });
  });

  it('is not read at all for the embedded back-end', () => {
    configure({ ORACLE_PROCEDURE: 'A.B.C' });
    expect(env().oracle).toBeUndefined();
  });

  for (const name of ['X; DROP TABLE agenda', 'PKG.PROC(1)', 'A.B.C.D', '1PROC', 'PROC@dblink', '"Quoted"', 'a..b', '']) {
    it(`refuses the procedure name ${JSON.stringify(name)}`, () => {
      configure({ ...minimal, ORACLE_PROCEDURE: name });
      expect(() => env()).toThrow(/ORACLE_PROCEDURE/);
    });
  }

  it('takes parameter-name overrides and refuses bad ones with a message naming the entry', () => {
    configure({ ...minimal, ORACLE_PARAM_NAMES: 'nrSeqAgenda = NR_SEQ_HORARIO_P, MENSAGEM_P=DS_MENSAGEM_P' });
    expect(env().oracle?.parameterNames).toMatchObject({
      nrSeqAgenda: 'NR_SEQ_HORARIO_P',
      MENSAGEM_P: 'DS_MENSAGEM_P',
      cdPlano: 'CD_PLANO_P',
    });
    for (const [value, message] of [
      ['nrSeqAgenda=X Y', /"X Y" \(for nrSeqAgenda\) is not a plain Oracle identifier/],
      ['pacienteId=CD_P', /unknown parameter "pacienteId"/],
      ['cdPlano=CD_CONVENIO_P', /CD_CONVENIO_P is used twice/],
      ['nrSeqAgenda', /is not key=NAME/],
    ] as const) {
      configure({ ...minimal, ORACLE_PARAM_NAMES: value });
      expect(() => env()).toThrow(message);
    }
  });

  it('refuses out-of-range pool and timeout settings', () => {
    for (const [name, value] of [
      ['ORACLE_POOL_SIZE', '0'],
      ['ORACLE_CONNECT_TIMEOUT_SECONDS', '0'],
      ['ORACLE_QUEUE_TIMEOUT_MS', '0'],
      ['ORACLE_CALL_TIMEOUT_MS', 'abc'],
    ]) {
      configure({ ...minimal, [name as string]: value as string });
      expect(() => env()).toThrow(new RegExp(name as string));
    }
  });

  it('external authentication needs Thick mode and then no password', () => {
    configure({ ...minimal, ORACLE_USER: '', ORACLE_PASSWORD: '', ORACLE_EXTERNAL_AUTH: 'true' });
    expect(() => env()).toThrow(/ORACLE_EXTERNAL_AUTH: needs ORACLE_CLIENT_MODE=thick/);
    configure({ ...minimal, ORACLE_USER: '', ORACLE_PASSWORD: '', ORACLE_EXTERNAL_AUTH: 'true', ORACLE_CLIENT_MODE: 'thick' });
    expect(env().oracle).toMatchObject({ externalAuth: true, clientMode: 'thick' });
  });

  it('checks the free-slot view name and time zone', () => {
    configure({ ...minimal, ORACLE_FREE_SLOTS_VIEW: 'TASY.VW_LIVRES', ORACLE_FREE_SLOTS_TIME_ZONE: 'America/Manaus' });
    expect(env().oracle).toMatchObject({ freeSlotsView: 'TASY.VW_LIVRES', freeSlotsTimeZone: 'America/Manaus' });
    configure({ ...minimal, ORACLE_FREE_SLOTS_VIEW: 'VW; DELETE' });
    expect(() => env()).toThrow(/ORACLE_FREE_SLOTS_VIEW/);
    configure({ ...minimal, ORACLE_FREE_SLOTS_TIME_ZONE: 'Mars/Olympus' });
    expect(() => env()).toThrow(/ORACLE_FREE_SLOTS_TIME_ZONE: is not an IANA time zone/);
  });

  it('never echoes the password in a configuration error', () => {
    configure({ ...minimal, ORACLE_PASSWORD: 'SenhaMuitoSecreta', ORACLE_POOL_SIZE: '-1' });
    expect(() => env()).toThrow(/ORACLE_POOL_SIZE/);
    try {
      env();
    } catch (error) {
      expect(String(error)).not.toContain('SenhaMuitoSecreta');
    }
  });
});
