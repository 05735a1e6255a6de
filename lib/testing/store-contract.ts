import { beforeAll, expect, it } from 'vitest';
import { getDb } from '@/lib/db/handle';
import { migrationSource } from '@/lib/db/migrations';
import { seedOnce } from '@/lib/seed/seed';
import { prepareDatabase } from '@/lib/seed/prepare';
import { seedSchema } from '@/lib/seed/seed-format';
import { toNumber } from '@/lib/db/dialect';
import { authenticateApiClient } from '@/lib/sign-in/api-clients';
import { listAudit, recordAudit } from '@/lib/audit/store';
import { getWebhook, searchWebhooks } from '@/lib/webhooks/configurations/service/access';
import { updateWebhook } from '@/lib/webhooks/configurations/service/update';
import { EmbeddedScheduler } from '@/lib/scheduling/embedded/scheduler';
import { activeHolds, listRecentReservations, recordRelease, recordReservation } from '@/lib/scheduling/recent-reservations-store';
import { ownerKey, type ApiClientPrincipal, type StaffPrincipal } from '@/lib/auth/principal';
import { isolationContract } from '@/lib/testing/isolation-contract';
import { operationalContract } from '@/lib/testing/operational-contract';
import { portalContract } from '@/lib/testing/portal-contract';
import { idempotencyContract, staffSessionContract, throttleContract } from '@/lib/testing/sign-in-store-contract';
import { deliveryClaimsContract } from '@/lib/testing/delivery-store-contract';
import { deliveryControlsContract } from '@/lib/testing/delivery-controls-contract';
import { buildTestSeed, slotOf, TENANT_A, TENANT_B, WEBHOOK_IDS } from '@/e2e/support/test-seed';
import { wireWebhooks } from '@/lib/webhooks/wiring';

// The configurations' hooks, as a server's start wires them.
wireWebhooks();

/**
 * What every repository must do the same way on SQLite, PostgreSQL and Oracle: registered by one
 * runner per database (repositories.*.test.ts), against whatever DATABASE_URL the runner set, so
 * driver quirks (bigint as string, CLOBs, '' read back as NULL, identifier case) show up here.
 */
const tenantA: ApiClientPrincipal = {
  kind: 'api-client',
  issuer: 'embedded',
  scopes: ['webhooks', 'scheduling'],
  clientId: TENANT_A.clientId,
  usuarioId: TENANT_A.usuarioId,
  sistemaOrigem: TENANT_A.sistemaOrigem,
};
/** A reservation body for the scheduler and read-model checks (agenda 938, beneficiaries 938xxx). */
const contractRequest = {
  nrSeqAgenda: slotOf(938, 0),
  nrSeqProcInterno: 70001,
  nrMinDuracao: 60,
  ieOpcao: 'R' as const,
  cdPessoaFisica: 938001,
  cdConvenio: 12,
  cdCategoria: 1,
  cdPlano: 3,
  cdUsuarioConvenio: '0012345678901',
  nmUsuario: 'contrato',
};
const staff: StaffPrincipal = { kind: 'staff', userId: 'u1', email: 'admin@e2e.exemplo.com.br', name: 'Ana', roles: ['admin'] };

export function storeContract(): void {
  // The server seeds at start (lib/startup.ts); here, once the suite's settings are in place.
  beforeAll(async () => prepareDatabase(await getDb()));
  throttleContract();
  staffSessionContract();
  idempotencyContract();
  deliveryClaimsContract();
  deliveryControlsContract();
  isolationContract();
  operationalContract();
  portalContract();
  it('migrates to the latest migration and seeds once, however often it is asked', async () => {
    const db = await getDb();
    const applied = await db('knex_migrations').select<{ name: string }[]>('name');
    expect(applied.map((row) => row.name).sort()).toEqual(await migrationSource.getMigrations([]));
    await seedOnce(db, seedSchema.parse(buildTestSeed()));
    const counted = await db('api_clients').count({ count: '*' });
    expect(toNumber(counted[0]?.count)).toBe(buildTestSeed().apiClients.length); // PostgreSQL counts as a string, Oracle as a number
    expect(await db('app_meta').where({ meta_key: 'seeded_at' })).toHaveLength(1);
  });

  it('authenticates API clients with numbers read back as numbers', async () => {
    expect(await authenticateApiClient(TENANT_B.clientId, TENANT_B.clientSecret)).toEqual({
      kind: 'api-client',
      issuer: 'embedded',
      scopes: ['webhooks', 'scheduling'],
      ...withoutSecret(TENANT_B),
    });
    expect(await authenticateApiClient(TENANT_B.clientId, 'wrong-secret')).toBeUndefined();
  });

  it('stores webhook configurations exactly: empty header values, accents, null clientId, long header lists', async () => {
    const headers = [
      { chave: 'X-Vazio', valor: '' },
      { chave: 'X-Descrição', valor: 'ação – “aspas” ' + 'x'.repeat(3000) },
      ...Array.from({ length: 10 }, (_, i) => ({ chave: `X-H${i}`, valor: 'v'.repeat(400) })),
    ];
    const { credentialsDropped, ...updated } = await updateWebhook(
      tenantA,
      WEBHOOK_IDS.a1,
      { headers, eventoAvaliacaoSaudeArquivada: true },
      null,
    );
    const read = await getWebhook(tenantA, WEBHOOK_IDS.a1);
    expect(read).toEqual(updated);
    expect(credentialsDropped).toBe(false);
    expect(read.config.headers).toEqual(headers);
    expect(read.config.sistemaOrigem).toBe(TENANT_A.sistemaOrigem);
    expect(read.config.eventoAvaliacaoSaudeArquivada).toBe(true);
    expect(read.config.eventoAvaliacaoSaudeDesarquivada).toBe(false);
    const db = await getDb();
    await db('webhook_configs').where({ id: WEBHOOK_IDS.a2 }).update({ client_id: null });
    expect((await getWebhook(tenantA, WEBHOOK_IDS.a2)).config.clientId).toBeNull();
  });

  it('searches configurations case-insensitively, treating % and _ literally', async () => {
    const found = await searchWebhooks(staff, 'RECEPTOR-A3');
    expect(found.map((config) => config.id)).toEqual([WEBHOOK_IDS.a3]);
    expect(await searchWebhooks(staff, '%')).toEqual([]);
    expect((await searchWebhooks(tenantA, 'receptor')).every((config) => config.usuarioId === TENANT_A.usuarioId)).toBe(true);
  });

  it('keeps audit entries with large before/after documents', async () => {
    const db = await getDb();
    const after = { texto: 'é'.repeat(5000), numero: 12 };
    await recordAudit(db, {
      principal: staff,
      action: 'webhook.update',
      target: 'webhook:contract',
      outcome: 'updated',
      httpStatus: 200,
      after,
    });
    const [entry] = await listAudit({ ator: staff.email, limite: 1 });
    expect(entry).toMatchObject({ alvo: 'webhook:contract', statusHttp: 200, antes: null, depois: after });
  });

  it('runs the embedded scheduler: reserve, conflict, listing, release', async () => {
    const scheduler = new EmbeddedScheduler(getDb);
    const request = contractRequest;
    const reserved = await scheduler.reserveOrRelease(request);
    expect(reserved).toMatchObject({ CODIGO_P: '0', IE_RESERVADO_P: 'S' });
    expect((await scheduler.reserveOrRelease({ ...request, nrSeqAgenda: slotOf(938, 1), cdPessoaFisica: 938002 })).CODIGO_P).toBe('2');
    const free = await scheduler.listFreeSlots({ cdAgenda: 938, limite: 3 });
    expect(free[0]).toEqual({
      NR_SEQ_AGENDA: slotOf(938, 2),
      CD_AGENDA: 938,
      DT_AGENDA: expect.stringMatching(/T08:00:00-03:00$/),
      NR_MIN_DURACAO: 30,
    });
    const release = { ...request, ieOpcao: 'CR' as const, tokenReservaCanc: reserved.TOKEN_RESERVA_P };
    expect((await scheduler.reserveOrRelease(release)).CODIGO_P).toBe('1');
    expect((await scheduler.reserveOrRelease(release)).CODIGO_P).toBe('4');
  });

  it("writes the service's rows in the scheduler's own transaction: committed with the reservation, or rolled back with it", async () => {
    const scheduler = new EmbeddedScheduler(getDb);
    const request = { ...contractRequest, nrSeqAgenda: slotOf(938, 20), cdPessoaFisica: 938201 };
    const recorded: string[] = [];
    const kept = await scheduler.reserveOrRelease(request, { clientId: 'contract', actsForHospital: true }, async (trx, answer) => {
      await recordAudit(trx, {
        principal: staff,
        action: 'slot.reserve',
        target: 'slot:contract-tx',
        outcome: `CODIGO_P=${answer.CODIGO_P}`,
      });
      recorded.push(answer.TOKEN_RESERVA_P);
    });
    expect(kept).toMatchObject({ CODIGO_P: '0' });
    expect(recorded).toEqual([kept.TOKEN_RESERVA_P]);
    expect(await listAudit({ alvo: 'slot:contract-tx' })).toHaveLength(1);

    // The audit row cannot be written: the reservation is not kept either, and the caller hears 9.
    const other = { ...request, nrSeqAgenda: slotOf(938, 22), cdPessoaFisica: 938202 };
    const failed = await scheduler.reserveOrRelease(other, { clientId: 'contract', actsForHospital: true }, async (trx) => {
      await recordAudit(trx, { principal: staff, action: 'slot.reserve', target: 'slot:contract-tx', outcome: 'rolled back' });
      throw new Error('audit store unavailable');
    });
    expect(failed).toMatchObject({ CODIGO_P: '9', IE_RESERVADO_P: 'N' });
    expect(await listAudit({ alvo: 'slot:contract-tx' })).toHaveLength(1);
    expect((await scheduler.listFreeSlots({ cdAgenda: 938, limite: 40 })).map((slot) => slot.NR_SEQ_AGENDA)).toContain(slotOf(938, 22));
    expect((await scheduler.reserveOrRelease(other)).CODIGO_P).toBe('0');
  });

  it('keeps the owner of a reservation and lets its holds lapse on the embedded scheduler', async () => {
    const t0 = Date.now();
    let clock = t0;
    const scheduler = new EmbeddedScheduler(getDb, () => clock, { holdMinutes: 10, maxDurationFactor: 4 });
    const asA = { clientId: TENANT_A.clientId, owner: ownerKey(tenantA), actsForHospital: false, holdLimit: 5 };
    const asPlatform = { ...asA, owner: ownerKey({ ...tenantA, issuer: 'platform' }) };
    const request = { ...contractRequest, nrSeqAgenda: slotOf(938, 10), cdPessoaFisica: 938101 };
    const held = await scheduler.reserveOrRelease(request, asA);
    expect(held).toMatchObject({ CODIGO_P: '0', expiresAt: t0 + 600_000 });
    const release = { ...request, ieOpcao: 'CR' as const, tokenReservaCanc: held.TOKEN_RESERVA_P };
    expect((await scheduler.reserveOrRelease(release, asPlatform)).CODIGO_P).toBe('4');
    clock = t0 + 600_000;
    expect((await scheduler.reserveOrRelease(release, asA)).CODIGO_P).toBe('4');
    expect((await scheduler.reserveOrRelease({ ...request, cdPessoaFisica: 938102 }, asPlatform)).CODIGO_P).toBe('0');
  });

  it('records reservations in the read model, scoped to their owner, masked, released and expiring', async () => {
    const db = await getDb();
    const t0 = 1_900_000_000_000;
    const platform: ApiClientPrincipal = { ...tenantA, issuer: 'platform' };
    const request = { ...contractRequest, nrSeqAgenda: slotOf(938, 20), cdPessoaFisica: 938201 };
    await recordReservation(db, tenantA, request, { token: 'RM-A-1', at: t0 });
    await recordReservation(db, tenantA, request, { token: 'RM-A-2', at: t0 + 1, expiresAt: t0 + 60_000 });
    await recordReservation(db, platform, request, { token: 'RM-P-1', at: t0 + 2 });
    await recordRelease(db, { ...request, ieOpcao: 'CR', tokenReservaCanc: 'RM-A-1' }, t0 + 3);

    const mine = (await listRecentReservations(db, tenantA, 200, t0 + 60_000)).filter((r) => r.token.startsWith('RM-'));
    expect(mine.map((r) => [r.token, r.estado])).toEqual([
      ['RM-A-2', 'expired'],
      ['RM-A-1', 'released'],
    ]);
    expect(mine[0]).toMatchObject({
      expiraEm: new Date(t0 + 60_000).toISOString(),
      cdPessoaFisica: '•••201',
      cdUsuarioConvenio: '••••••••8901',
      nrMinDuracao: 60,
      cdPlano: 3,
    });
    expect(mine[1]).toMatchObject({ liberadaEm: new Date(t0 + 3).toISOString(), expiraEm: null });
    const all = (await listRecentReservations(db, staff, 200, t0)).map((r) => r.token);
    expect(all).toEqual(expect.arrayContaining(['RM-A-1', 'RM-A-2', 'RM-P-1']));
    expect(await activeHolds(db, ownerKey(tenantA), t0 + 59_999)).toMatchObject({ count: 1, oldestExpiresAt: t0 + 60_000 });
    expect((await activeHolds(db, ownerKey(platform), t0)).count).toBe(1);
    // Nothing in clear: the beneficiary's identifiers are not stored.
    const stored = JSON.stringify(await db('reservation_log').where('token', 'like', 'RM-%'));
    expect(stored).not.toContain('938201');
    expect(stored).not.toContain('0012345678901');
  });
}

function withoutSecret({ clientSecret: _secret, ...rest }: typeof TENANT_B) {
  return rest;
}
