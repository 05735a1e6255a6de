import { beforeAll, expect, it } from 'vitest';
import { getDb } from '@/lib/db/handle';
import { migrationSource } from '@/lib/db/migrations';
import { seedOnce } from '@/lib/seed/seed';
import { prepareDatabase } from '@/lib/seed/prepare';
import { seedSchema } from '@/lib/seed/seed-format';
import { toNumber, type DbRow } from '@/lib/db/dialect';
import { authenticateApiClient } from '@/lib/sign-in/api-clients';
import { listAudit, recordAudit } from '@/lib/audit/store';
import { getWebhook, searchWebhooks } from '@/lib/webhooks/configurations/service/access';
import { updateWebhook } from '@/lib/webhooks/configurations/service/update';
import { EmbeddedScheduler } from '@/lib/scheduling/embedded-scheduler';
import { activeHolds, listRecentReservations, recordRelease, recordReservation } from '@/lib/scheduling/recent-reservations-store';
import { countAttempt, settleSuccess, signInCounters, sweepExpiredCounters, tokenCounters } from '@/lib/auth/login-throttle';
import { LONGEST_WINDOW_MS, THROTTLE_RULES } from '@/lib/auth/throttle-policy';
import { claimKey, completeKey, releaseKey } from '@/lib/idempotency/store';
import {
  claimAmong,
  claimDue,
  findDelivery,
  loadAttemptContexts,
  publishEvent,
  recordAttempts,
  requeueDelivery,
  waitingCandidates,
} from '@/lib/webhooks/delivery/store';
import { sweepRetention } from '@/lib/retention';
import { ownerKey, type ApiClientPrincipal, type StaffPrincipal } from '@/lib/auth/principal';
import { findStaffById, insertStaff, updateStaffRow } from '@/lib/staff/store';
import { isolationContract } from '@/lib/testing/isolation-contract';
import { operationalContract } from '@/lib/testing/operational-contract';
import { portalContract } from '@/lib/testing/portal-contract';
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
const circuit = { threshold: 5, openMs: 30_000, maxOpenMs: 1_800_000 };
const staff: StaffPrincipal = { kind: 'staff', userId: 'u1', email: 'admin@e2e.exemplo.com.br', name: 'Ana', roles: ['admin'] };

export function storeContract(): void {
  // The server seeds at start (lib/startup.ts); here, once the suite's settings are in place.
  beforeAll(async () => prepareDatabase(await getDb()));
  throttleContract();
  staffSessionContract();
  idempotencyContract();
  deliveryContract();
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

function throttleContract(): void {
  it('counts sign-in attempts atomically: of parallel attempts exactly the limit passes; a success clears', async () => {
    const counters = signInCounters('contrato-paralelo@exemplo.com.br', '203.0.113.9');
    const decisions = await Promise.all(Array.from({ length: 12 }, () => countAttempt(counters)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(THROTTLE_RULES.emailAndAddress.maxFailures);
    const refused = decisions.find((decision) => !decision.allowed);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: THROTTLE_RULES.emailAndAddress.lockMs / 1000 });
    await settleSuccess(counters);
    expect(await countAttempt(counters)).toEqual({ allowed: true });
  });

  it('locks an address guessing at many identities, not the same identities from another address', async () => {
    const rule = THROTTLE_RULES.tokenAddress;
    const decisions = [];
    for (let i = 0; i <= rule.maxFailures; i++)
      decisions.push(await countAttempt(tokenCounters(`contrato-aleatorio-${i}`, '198.51.100.66')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(rule.maxFailures);
    expect((await countAttempt(tokenCounters('contrato-aleatorio-0', '198.51.100.67'))).allowed).toBe(true);
  });

  it('a success gives the address its attempt back, so successes never add up to a lock', async () => {
    const rule = THROTTLE_RULES.signInAddress;
    for (let i = 0; i < rule.maxFailures * 2; i++) {
      const counters = signInCounters(`contrato-nat-${i}@exemplo.com.br`, '198.51.100.70');
      expect((await countAttempt(counters)).allowed).toBe(true);
      await settleSuccess(counters);
    }
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as the IPv4 one', async () => {
    const limit = THROTTLE_RULES.emailAndAddress.maxFailures;
    const email = 'contrato-ipv6@exemplo.com.br';
    for (let i = 1; i <= limit; i++) expect((await countAttempt(signInCounters(email, `2001:db8:c0:1::${i}`))).allowed).toBe(true);
    expect((await countAttempt(signInCounters(email, '2001:db8:c0:1:ffff::9'))).allowed).toBe(false);
    expect((await countAttempt(signInCounters(email, '2001:db8:c0:2::1'))).allowed).toBe(true);
    for (let i = 1; i <= limit; i++) expect((await countAttempt(signInCounters(email, '198.51.100.80'))).allowed).toBe(true);
    expect((await countAttempt(signInCounters(email, '::ffff:198.51.100.80'))).allowed).toBe(false);
  });

  it('sweeps counters whose window and lock are over, and only those', async () => {
    const db = await getDb();
    const now = 1_900_000_000_000;
    const old = now - LONGEST_WINDOW_MS - 1;
    await db('login_throttle').insert([
      { throttle_key: 'sweep:old', failures: 3, window_start: old, locked_until: null },
      { throttle_key: 'sweep:old-lock-over', failures: 9, window_start: old, locked_until: now - 1 },
      { throttle_key: 'sweep:still-locked', failures: 9, window_start: old, locked_until: now + 60_000 },
      { throttle_key: 'sweep:recent', failures: 1, window_start: now - 1000, locked_until: null },
    ]);
    await sweepExpiredCounters(db, now);
    const left = await db('login_throttle').where('throttle_key', 'like', 'sweep:%').select('throttle_key');
    expect(left.map((row: DbRow) => String(row.throttle_key)).sort()).toEqual(['sweep:recent', 'sweep:still-locked']);
  });

  it('locks a counter until its lock runs out, then gives a fresh set of attempts', async () => {
    const t0 = 1_800_000_000_000;
    const rule = THROTTLE_RULES.clientAndAddress;
    const counters = tokenCounters('contrato-cliente', '198.51.100.1');
    for (let attempt = 0; attempt < rule.maxFailures; attempt++) expect((await countAttempt(counters, () => t0)).allowed).toBe(true);
    expect(await countAttempt(counters, () => t0 + 1000)).toEqual({ allowed: false, retryAfterSeconds: rule.lockMs / 1000 - 1 });
    expect(await countAttempt(counters, () => t0 + rule.lockMs)).toEqual({ allowed: true });
    // Sign-in and token counters live in separate key namespaces.
    expect((await countAttempt(signInCounters('contrato-cliente', '198.51.100.1'), () => t0 + 1000)).allowed).toBe(true);
  });
}

function staffSessionContract(): void {
  it('bumps a staff account’s session version in the statement, guarded by the version a session holds', async () => {
    const db = await getDb();
    const id = '5e551011-0000-4000-8000-000000000001';
    await insertStaff(db, { id, email: 'contrato-sessao@exemplo.com.br', name: 'Sessão', roles: 'scheduling', createdAt: Date.now() });
    expect((await findStaffById(db, id))?.sessionVersion).toBe(0);
    expect(await updateStaffRow(db, id, { passwordHash: 'x', endSessions: true }, { sessionVersion: 0 })).toBe(1);
    expect((await findStaffById(db, id))?.sessionVersion).toBe(1);
    // A session still at version 0 was ended by that change: its own change changes nothing.
    expect(await updateStaffRow(db, id, { passwordHash: 'y', endSessions: true }, { sessionVersion: 0 })).toBe(0);
    expect(await findStaffById(db, id)).toMatchObject({ passwordHash: 'x', sessionVersion: 1 });
    // Concurrent bumps each count.
    await Promise.all(Array.from({ length: 5 }, () => updateStaffRow(db, id, { endSessions: true })));
    expect((await findStaffById(db, id))?.sessionVersion).toBe(6);
  });
}

function idempotencyContract(): void {
  it('stores idempotency keys: one claim among contenders, replay, mismatch, release', async () => {
    const db = await getDb();
    const ref = { owner: 'api-client:embedded:contrato:cliente', key: 'contrato-1' };
    const t0 = Date.now();
    const claims = await Promise.all(Array.from({ length: 6 }, () => claimKey(db, ref, 'h', t0)));
    expect(claims.filter((claim) => claim.kind === 'claimed')).toHaveLength(1);
    expect(claims.filter((claim) => claim.kind === 'in-flight')).toHaveLength(5);
    const answer = { status: 200, body: { CODIGO_P: '0', MENSAGEM_P: 'Reservado – ação' } };
    await completeKey(db, ref, t0, answer);
    expect(await claimKey(db, ref, 'h', t0 + 1)).toEqual({ kind: 'replay', answer });
    expect(await claimKey(db, ref, 'other', t0 + 1)).toEqual({ kind: 'mismatch' });
    const second = { ...ref, key: 'contrato-2' };
    expect(await claimKey(db, second, 'h', t0)).toEqual({ kind: 'claimed', claimedAt: t0 });
    await releaseKey(db, second, t0);
    expect((await claimKey(db, second, 'h', t0 + 1)).kind).toBe('claimed');
  });
}

function deliveryContract(): void {
  it('claims due deliveries once while leased, records outcomes, and lets another owner take over an expired lease', async () => {
    const db = await getDb();
    const now = 1_850_000_000_000;
    const published = await publishEvent(
      db,
      'contrato',
      { tipo: 'eventoPropostaCancelada', usuarioId: TENANT_A.usuarioId, dados: { n: 1 }, idEvento: 'contrato-1' },
      now,
    );
    expect(published.entregas).toBeGreaterThanOrEqual(1);
    const again = await publishEvent(
      db,
      'contrato',
      { tipo: 'eventoPropostaCancelada', usuarioId: TENANT_A.usuarioId, dados: {}, idEvento: 'contrato-1' },
      now,
    );
    expect(published.waiting).toHaveLength(published.entregas);
    expect(again).toEqual({ ...published, repeated: true, waiting: [] });

    const claim = (owner: string, at: number) =>
      claimDue(db, owner, { limit: 100, now: at, leaseMs: 10_000, perEndpoint: 100, perTenant: 1000 });
    const first = await claim('instancia-1', now);
    expect(first.length).toBe(published.entregas);
    expect(await claim('instancia-2', now + 1)).toEqual([]);
    // instancia-1 died: after its lease, instancia-2 takes the deliveries over; instancia-1's late outcome is not written.
    const takenOver = await claim('instancia-2', now + 10_001);
    expect(takenOver.sort()).toEqual([...first].sort());
    const [context] = await loadAttemptContexts(db, [first[0]!]);
    const outcome = {
      startedAt: now + 10_002,
      durationMs: 3,
      status: 204,
      body: '',
      error: null,
      outage: false,
      requestHeaders: { 'webhook-id': first[0]! },
    };
    const decision = { status: 'entregue' as const, nextAttemptAt: null, failingSince: null };
    expect(await recordAttempts(db, 'instancia-1', [{ context: context!, outcome, decision }], circuit)).toEqual([{ written: false }]);
    expect(await recordAttempts(db, 'instancia-2', [{ context: context!, outcome, decision }], circuit)).toEqual([{ written: true }]);
    const detail = await findDelivery(db, context!.config.id, first[0]!);
    expect(detail?.context.delivery).toMatchObject({ status: 'entregue', attempts: 1, lastStatus: 204 });
    expect(detail?.attempts).toEqual([expect.objectContaining({ number: 1, status: 204, headers: { 'webhook-id': first[0] } })]);
  });

  it('shares claims round-robin across configurations, caps each one across instances, and skips an open circuit but for one probe', async () => {
    const db = await getDb();
    const now = 1_860_000_000_000;
    await db('webhook_deliveries').where({ status: 'pendente' }).update({ status: 'falhou', next_attempt_at: null });
    // Tenant A's ten configurations get 20 deliveries each (a backlog); tenant B's one gets 2.
    for (let i = 0; i < 20; i++) {
      await publishEvent(db, 'justo', { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_A.usuarioId, dados: { i } }, now);
    }
    for (let i = 0; i < 2; i++) {
      await publishEvent(db, 'justo', { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_B.usuarioId, dados: { i } }, now);
    }
    await db('webhook_configs')
      .where({ id: WEBHOOK_IDS.a2 })
      .update({ circuit_failures: 5, circuit_open_until: now + 60_000 });
    const perConfig = async (ids: string[]) => {
      const rows = ids.length ? await db('webhook_deliveries').whereIn('id', ids).select<DbRow[]>('config_id') : [];
      const counts: Record<string, number> = {};
      for (const row of rows) counts[String(row.config_id)] = (counts[String(row.config_id)] ?? 0) + 1;
      return counts;
    };
    const settings = { now, leaseMs: 30_000, perEndpoint: 2, perTenant: 1000 };

    // Twelve slots over ten configurations that may be attempted: one each first, then a second for two.
    const first = await perConfig(await claimDue(db, 'instancia-1', { ...settings, limit: 12 }));
    expect(Object.keys(first)).toHaveLength(10);
    expect(first[WEBHOOK_IDS.a2]).toBeUndefined();
    expect(first[WEBHOOK_IDS.b1]).toBeGreaterThanOrEqual(1);
    expect(Object.values(first).reduce((sum, count) => sum + count, 0)).toBe(12);
    expect(Math.max(...Object.values(first))).toBe(2);

    // Another instance fills each configuration up to the cap, counting instancia-1's attempts in flight.
    const second = await perConfig(await claimDue(db, 'instancia-2', { ...settings, limit: 100 }));
    for (const id of Object.keys(first)) expect((first[id] ?? 0) + (second[id] ?? 0)).toBe(2);
    expect(second[WEBHOOK_IDS.a2]).toBeUndefined();
    expect(await claimDue(db, 'instancia-3', { ...settings, limit: 100 })).toEqual([]);

    // The open period is over: one probe for a2, however many slots there are.
    await db('webhook_configs')
      .where({ id: WEBHOOK_IDS.a2 })
      .update({ circuit_open_until: now - 1 });
    expect(await perConfig(await claimDue(db, 'instancia-3', { ...settings, limit: 100 }))).toEqual({ [WEBHOOK_IDS.a2]: 1 });
    await db('webhook_configs').where({ id: WEBHOOK_IDS.a2 }).update({ circuit_failures: 0, circuit_open_until: null });
  });

  it('serves tenants in turn before configurations, and caps each tenant’s attempts in flight across instances', async () => {
    const db = await getDb();
    const now = 1_865_000_000_000;
    await db('webhook_deliveries').where({ status: 'pendente' }).update({ status: 'falhou', next_attempt_at: null });
    // Tenant A (ten configurations) has waited longest, with 5 deliveries each; tenant B's one configuration has 3, newer.
    for (let i = 0; i < 5; i++) {
      await publishEvent(
        db,
        'inquilinos',
        { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_A.usuarioId, dados: { i } },
        now - 1000,
      );
    }
    for (let i = 0; i < 3; i++) {
      await publishEvent(db, 'inquilinos', { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_B.usuarioId, dados: { i } }, now);
    }
    const tenantOf = async (ids: string[]) => {
      const rows = ids.length ? await db('webhook_deliveries').whereIn('id', ids).select<DbRow[]>('config_id') : [];
      const counts = { a: 0, b: 0 };
      for (const row of rows) counts[String(row.config_id) === WEBHOOK_IDS.b1 ? 'b' : 'a']++;
      return counts;
    };
    const settings = { now, leaseMs: 30_000, perEndpoint: 2, perTenant: 3 };

    // Two slots: one for each tenant, although A's ten configurations all waited longer than B's.
    expect(await tenantOf(await claimDue(db, 'instancia-1', { ...settings, limit: 2 }))).toEqual({ a: 1, b: 1 });
    // Another instance fills each tenant up to its cap (A: 3), counting instancia-1's attempts, and B's configuration up to its own (2).
    expect(await tenantOf(await claimDue(db, 'instancia-2', { ...settings, limit: 100 }))).toEqual({ a: 2, b: 1 });
    expect(await claimDue(db, 'instancia-3', { ...settings, limit: 100 })).toEqual([]);
    // One of A's attempts ends: A may have one more in flight, and only one.
    const [leased] = await db('webhook_deliveries')
      .whereNot({ config_id: WEBHOOK_IDS.b1 })
      .andWhere('lease_until', '>=', now)
      .select<DbRow[]>('id');
    await db('webhook_deliveries')
      .where({ id: leased!.id })
      .update({ status: 'entregue', lease_owner: null, lease_until: null, next_attempt_at: null });
    expect(await tenantOf(await claimDue(db, 'instancia-3', { ...settings, limit: 100 }))).toEqual({ a: 1, b: 0 });
  });

  it('opens a configuration’s circuit after consecutive outages and closes it on an answer, recorded with the attempts', async () => {
    const db = await getDb();
    const now = 1_870_000_000_000;
    await db('webhook_deliveries').where({ status: 'pendente' }).update({ status: 'falhou', next_attempt_at: null });
    for (let i = 0; i < 3; i++) {
      await publishEvent(db, 'circuito', { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_B.usuarioId, dados: { i } }, now);
    }
    const ids = await claimDue(db, 'instancia-1', { limit: 10, now, leaseMs: 30_000, perEndpoint: 10, perTenant: 10 });
    expect(ids).toHaveLength(3);
    const record = async (id: string, status: number) => {
      const context = (await loadAttemptContexts(db, [id]))[0]!;
      const outcome = {
        startedAt: now + 1,
        durationMs: 5,
        status,
        body: '',
        error: status < 300 ? null : ('status-http' as const),
        outage: status >= 500,
        requestHeaders: {},
      };
      const decision = {
        status: status < 300 ? ('entregue' as const) : ('pendente' as const),
        nextAttemptAt: now + 5000,
        failingSince: null,
      };
      return recordAttempts(db, 'instancia-1', [{ context, outcome, decision }], { threshold: 2, openMs: 60_000, maxOpenMs: 600_000 });
    };
    expect(await record(ids[0]!, 503)).toEqual([{ written: true }]);
    const [opened] = await record(ids[1]!, 502);
    expect(opened?.circuit).toMatchObject({ change: 'opened', state: { failures: 2, openedAt: now + 6 } });
    const [row] = (await db('webhook_configs').where({ id: WEBHOOK_IDS.b1 })) as DbRow[];
    expect(toNumber(row!.circuit_failures)).toBe(2);
    expect(toNumber(row!.circuit_open_until)).toBeGreaterThanOrEqual(now + 6 + 48_000);
    // An attempt already in flight answers: the receiver is up again.
    const [closed] = await record(ids[2]!, 204);
    expect(closed?.circuit).toEqual({ change: 'closed', state: { failures: 0, openUntil: null, openedAt: null } });
    const [after] = (await db('webhook_configs').where({ id: WEBHOOK_IDS.b1 })) as DbRow[];
    expect(after!.circuit_open_until ?? null).toBeNull();
  });

  it('delivery controls: ordered delivery sends the head alone, a rate limit paces claims across instances, a pause holds them', async () => {
    const db = await getDb();
    const now = 1_875_000_000_000;
    await db('webhook_deliveries').where({ status: 'pendente' }).update({ status: 'falhou', next_attempt_at: null });
    const b1 = WEBHOOK_IDS.b1;
    const settings = { leaseMs: 30_000, perEndpoint: 4, perTenant: 8, limit: 10 };
    const publish = async (count: number, at: number) => {
      for (let i = 0; i < count; i++) {
        await publishEvent(db, 'controles', { tipo: 'eventoPropostaCancelada', usuarioId: TENANT_B.usuarioId, dados: { i } }, at + i);
      }
    };
    const record = async (id: string, at: number, status: 'entregue' | 'pendente', nextAttemptAt: number | null, owner = 'instancia-1') => {
      const [context] = await loadAttemptContexts(db, [id]);
      const outcome = {
        startedAt: at,
        durationMs: 1,
        status: status === 'entregue' ? 204 : 500,
        body: '',
        error: null,
        outage: false,
        requestHeaders: {},
      };
      return recordAttempts(db, owner, [{ context: context!, outcome, decision: { status, nextAttemptAt, failingSince: null } }], circuit);
    };
    const order = async (ids: string[]) =>
      (await db('webhook_deliveries').whereIn('id', ids).orderBy('created_at').select<DbRow[]>('id')).map((row) => String(row.id));

    // Ordered: one at a time, the oldest first, even while it waits for a retry.
    await db('webhook_configs').where({ id: b1 }).update({ ordered: true });
    await publish(3, now);
    const all = await order(await db('webhook_deliveries').where({ config_id: b1, status: 'pendente' }).pluck('id'));
    expect(await claimDue(db, 'instancia-1', { ...settings, now: now + 10 })).toEqual([all[0]]);
    expect(await claimDue(db, 'instancia-2', { ...settings, now: now + 11 })).toEqual([]);
    await record(all[0]!, now + 12, 'pendente', now + 5_000);
    expect(await claimDue(db, 'instancia-2', { ...settings, now: now + 13 })).toEqual([]);
    expect(await claimDue(db, 'instancia-2', { ...settings, now: now + 5_001 })).toEqual([all[0]]);
    await record(all[0]!, now + 5_002, 'entregue', null, 'instancia-2');
    expect(await claimDue(db, 'instancia-1', { ...settings, now: now + 5_003 })).toEqual([all[1]]);
    await db('webhook_configs').where({ id: b1 }).update({ ordered: false });
    await db('webhook_deliveries')
      .where({ config_id: b1 })
      .update({ status: 'falhou', next_attempt_at: null, lease_owner: null, lease_until: null });

    // 10 a second: a burst of 1, then one every 100 ms, whichever instance claims; the claim says when to come back.
    await db('webhook_configs').where({ id: b1 }).update({ rate_limit_per_second: 10, rate_tat: null });
    const later = now + 60_000;
    await publish(20, later);
    const claimed = async (owner: string, at: number) =>
      await claimAmong(db, owner, { ...settings, now: at }, await waitingCandidates(db, at));
    expect((await claimed('instancia-1', later + 100)).ids).toHaveLength(1);
    const held = await claimed('instancia-2', later + 150);
    expect(held.ids).toEqual([]);
    expect(held.wakeAt).toBe(later + 200);
    expect((await claimed('instancia-2', later + 200)).ids).toHaveLength(1);
    expect((await claimed('instancia-1', later + 450)).ids).toHaveLength(1);
    await db('webhook_configs').where({ id: b1 }).update({ rate_limit_per_second: null, rate_tat: null });

    // Paused by its receiver: not a candidate until then.
    await db('webhook_configs')
      .where({ id: b1 })
      .update({ paused_until: later + 10_000 });
    expect((await waitingCandidates(db, later + 500)).map((candidate) => candidate.configId)).not.toContain(b1);
    expect((await waitingCandidates(db, later + 10_000)).map((candidate) => candidate.configId)).toContain(b1);
    await db('webhook_configs').where({ id: b1 }).update({ paused_until: null });
    await db('webhook_deliveries')
      .where({ config_id: b1 })
      .update({ status: 'falhou', next_attempt_at: null, lease_owner: null, lease_until: null });
  });

  it('does not requeue a delivery whose attempt is in flight, and does once its lease is over', async () => {
    const db = await getDb();
    const now = 1_880_000_000_000;
    await db('webhook_deliveries').where({ status: 'pendente' }).update({ status: 'falhou', next_attempt_at: null });
    await publishEvent(db, 'reenvio', { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_B.usuarioId, dados: {} }, now);
    const [id] = await claimDue(db, 'instancia-1', { limit: 1, now, leaseMs: 30_000, perEndpoint: 4, perTenant: 4 });
    expect(await requeueDelivery(db, id!, now + 10)).toBe(false);
    expect(await db('webhook_deliveries').where({ id, lease_owner: 'instancia-1' })).toHaveLength(1);
    expect(await requeueDelivery(db, id!, now + 30_001)).toBe(true);
  });

  it('prunes delivery history and, when asked, the audit trail in batches, keeping what is young or still pending', async () => {
    const db = await getDb();
    const day = 86_400_000;
    const now = 1_890_000_000_000;
    const old = now - 91 * day;
    const oldEvents = [];
    for (let i = 0; i < 4; i++) {
      oldEvents.push(
        await publishEvent(db, 'retencao', { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_B.usuarioId, dados: { i } }, old),
      );
    }
    const young = await publishEvent(
      db,
      'retencao',
      { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_B.usuarioId, dados: {} },
      now,
    );
    // Three old ones finished (one with an attempt on record); the fourth is still pending.
    await db('webhook_deliveries')
      .whereIn(
        'event_id',
        oldEvents.slice(0, 3).map((event) => event.id),
      )
      .update({ status: 'entregue', next_attempt_at: null });
    const [finished] = await db('webhook_deliveries').where({ event_id: oldEvents[0]!.id }).select<DbRow[]>('id');
    await db('webhook_attempts').insert({
      id: `att_retencao_${now}`,
      delivery_id: String(finished!.id),
      attempt_no: 1,
      started_at: old,
      duration_ms: 1,
      status: 204,
      request_headers_json: '{}',
    });
    await db('audit_events').insert(
      [1, 2, 3].map((n) => ({
        id: `retencao-${n}-${now}`,
        at_ms: old + n,
        actor_kind: 'system',
        actor_id: 'retencao',
        action: 'webhook.update',
        target: 't',
        outcome: 'ok',
      })),
    );
    const kept = await sweepRetention(db, { deliveryDays: 90 }, now, 2);
    expect(kept.deliveries).toBeGreaterThanOrEqual(3);
    expect(kept.audit).toBe(0);
    expect(
      await db('webhook_events').whereIn(
        'id',
        oldEvents.slice(0, 3).map((event) => event.id),
      ),
    ).toHaveLength(0);
    expect(await db('webhook_attempts').where({ delivery_id: String(finished!.id) })).toHaveLength(0);
    expect(await db('webhook_events').where({ id: oldEvents[3]!.id })).toHaveLength(1);
    expect(await db('webhook_deliveries').where({ event_id: oldEvents[3]!.id })).toHaveLength(1);
    expect(await db('webhook_deliveries').where({ event_id: young.id })).toHaveLength(1);
    expect(await db('audit_events').where('id', 'like', 'retencao-%')).toHaveLength(3);
    const withAudit = await sweepRetention(db, { deliveryDays: 90, auditDays: 90 }, now, 2);
    expect(withAudit.audit).toBeGreaterThanOrEqual(3);
    expect(await db('audit_events').where('id', 'like', 'retencao-%')).toHaveLength(0);
  });
}

function withoutSecret({ clientSecret: _secret, ...rest }: typeof TENANT_B) {
  return rest;
}
