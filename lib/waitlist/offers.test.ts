import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeDb, getDb } from '@/lib/db/handle';
import { listAudit } from '@/lib/audit/store';
import type { ApiClientPrincipal } from '@/lib/auth/principal';
import { DEFAULT_PARAMETER_NAMES, type OracleSchedulingConfig } from '@/lib/config/oracle';
import type { SchedulingBackend } from '@/lib/scheduling/backend';
import type { FreeSlot } from '@/lib/scheduling/contract';
import { FakeOraclePool, oracleError, outBinds } from '@/lib/scheduling/oracle/testing/fake-oracle';
import { OracleScheduler } from '@/lib/scheduling/oracle/oracle-scheduler';
import { logTo, resetEnv } from '@/lib/testing/hooks';
import { waitlistPass } from './offers';
import { declineOffer } from './offer-answers';
import { addEntry } from './service';
import { getEntry } from './views';

/**
 * The waitlist's offers through the Oracle adapter (the production path), on a fake pool that
 * checks what is sent and plays the procedure's answers and failures; the app's own tables on a
 * throw-away embedded database. The free slots come from a list the case sets (the adapter's view
 * has tests of its own).
 */
const inUse = vi.hoisted(() => ({ backend: undefined as SchedulingBackend | undefined }));
vi.mock('@/lib/scheduling/backends', () => ({ schedulingBackend: () => inUse.backend }));

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

const partner: ApiClientPrincipal = {
  kind: 'api-client',
  issuer: 'embedded',
  scopes: ['webhooks', 'scheduling'],
  clientId: 'portal-parceiro',
  usuarioId: '7d4f1c2a-3b5e-4c6d-8e9f-0a1b2c3d4e5f',
  sistemaOrigem: 3,
};

const START = new Date(Date.now() + 2 * 86_400_000);
const slot: FreeSlot = { NR_SEQ_AGENDA: 4455667, CD_AGENDA: 12, DT_AGENDA: START.toISOString(), NR_MIN_DURACAO: 30 };
let fake: FakeOraclePool;
let free: FreeSlot[];
let logged: string[];
let person = 7_654_300;

async function newEntry() {
  person += 1;
  return addEntry(partner, {
    nrSeqProcInterno: 50102,
    nrMinDuracao: 30,
    cdAgendas: [12],
    de: new Date(START.getTime() - 3_600_000).toISOString(),
    ate: new Date(START.getTime() + 3_600_000).toISOString(),
    cdPessoaFisica: person,
    cdConvenio: 12,
    cdCategoria: 1,
    cdPlano: 3,
    cdUsuarioConvenio: '0012345678901',
    nmUsuario: 'portal-parceiro',
  });
}

beforeAll(() => {
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-waitlist-unit-'));
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
  free = [slot];
  const oracle = new OracleScheduler(config, async () => fake.asPool());
  inUse.backend = {
    name: 'oracle',
    enforcesHoldQuota: false,
    recordsInItsTransaction: false,
    reserveOrRelease: (request, context) => oracle.reserveOrRelease(request, context),
    listFreeSlots: async () => free,
  };
  logged = [];
  logTo({ write: (line: string) => void logged.push(line) });
});
afterEach(async () => {
  logTo(undefined);
  // Patient identifiers never reach the log, whatever happened.
  for (const line of logged) {
    expect(line).not.toContain(String(person));
    expect(line).not.toContain('0012345678901');
  }
  // Each case leaves no entry of its own in line for the next.
  const db = await getDb();
  await db('waitlist_entries').update({ status: 'removida' });
  await db('waitlist_offers').update({ active_slot: null });
});

describe('the waitlist through the Oracle procedure', () => {
  it('reserves a free slot for the first entry with R and puts the offer out with the procedure’s token', async () => {
    const entry = await newEntry();
    fake.play(outBinds('0', 'S', 'TKORACLE0001', 'Horário reservado.'));
    await waitlistPass();
    const [call] = fake.executed;
    expect(call?.binds).toMatchObject({
      b_ieopcao: { val: 'R' },
      b_nrseqagenda: { val: slot.NR_SEQ_AGENDA },
      b_nrseqprocinterno: { val: 50102 },
      b_cdpessoafisica: { val: person },
    });
    const offered = await getEntry(partner, entry.id);
    expect(offered).toMatchObject({
      situacao: 'ofertada',
      oferta: { situacao: 'ofertada', tokenReserva: 'TKORACLE0001', nrSeqAgenda: slot.NR_SEQ_AGENDA },
    });

    // Declined: the product releases it with CR and the procedure's token.
    fake.play(outBinds('1', 'N', null, 'Reserva cancelada.'));
    expect((await declineOffer(partner, entry.id)).situacao).toBe('recusada');
    expect(fake.executed[1]?.binds).toMatchObject({
      b_ieopcao: { val: 'CR' },
      b_tokenreservacanc: { val: 'TKORACLE0001' },
      b_nrseqagenda: { val: slot.NR_SEQ_AGENDA },
    });
    expect((await getEntry(partner, entry.id)).oferta?.situacao).toBe('recusada');

    // The trail has the offer and its release, the patient and the token masked.
    const trail = JSON.stringify(await listAudit({ limite: 50 }));
    expect(trail).toContain('waitlist.offer');
    expect(trail).toContain('waitlist.decline');
    expect(trail).not.toContain('TKORACLE0001');
    expect(trail).not.toContain(String(person));
  });

  it('leaves the entry waiting, with nothing reserved, when the procedure cannot be reached', async () => {
    const entry = await newEntry();
    fake.acquireError = oracleError('NJS-040');
    await waitlistPass();
    const waiting = await getEntry(partner, entry.id);
    expect(waiting.situacao).toBe('aguardando');
    expect(waiting.oferta?.situacao).toBe('falhou');
    expect(waiting.oferta?.tokenReserva).toBeNull();
    // The slot is held by no offer: once the procedure answers, it is offered again.
    const db = await getDb();
    expect(await db('waitlist_offers').whereNotNull('active_slot').count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('leaves the entry waiting when the slot was taken meanwhile (CODIGO_P 2)', async () => {
    const entry = await newEntry();
    fake.play(outBinds('2', 'N', null, 'Horário não está mais disponível.'));
    await waitlistPass();
    expect((await getEntry(partner, entry.id)).situacao).toBe('aguardando');
  });
});
