import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, reservationBody, RESERVE_PATH, tokenFor, waitlistEntryBody } from '../support/api';
import { adminDatabaseUrl, createDatabase, dropDatabase, queryDatabase } from '../support/databases';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { buildTestSeed, slotOf, TENANT_A, TENANT_B } from '../support/test-seed';

/**
 * The waitlist on two app processes sharing one PostgreSQL database (issue 48): eight held slots
 * of agenda 930 are released at once through both while eight entries wait for any of them, and
 * one process is killed (SIGKILL) right after. Every freed slot ends with exactly one hold, no
 * entry is lost or left half-offered, and the survivor settles what the killed one left. Runs in
 * `npm run test:e2e:pg` (E2E_DATABASE_URL), on a database of its own.
 */
const adminUrl = adminDatabaseUrl();
test.skip(!adminUrl, 'needs a server database: run with E2E_DATABASE_URL (npm run test:e2e:pg)');

const COUNT = 8;
const AGENDA = 930;
let databaseUrl: string;
let servers: RunningServer[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  if (!adminUrl) return;
  databaseUrl = await createDatabase(adminUrl, 'waitlist_multi');
  const shared = {
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    WAITLIST_SCAN_SECONDS: '1',
    WAITLIST_OFFER_MINUTES: '30',
  };
  servers = await Promise.all([0, 1].map((index) => startServer({ dataDir: newDataDir(`waitlist-multi-${index}`), env: shared })));
});

test.afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  if (adminUrl && databaseUrl) await dropDatabase(adminUrl, databaseUrl);
});

test('two instances and a kill -9 during the offers: exactly one hold per freed slot, no entry lost', async ({ request }) => {
  test.setTimeout(180_000);
  const [a, b] = servers as [RunningServer, RunningServer];
  const slots = Array.from({ length: COUNT }, (_, i) => slotOf(AGENDA, i));
  const starts = buildTestSeed()
    .slots.filter((slot) => slots.includes(slot.nrSeqAgenda))
    .map((slot) => Date.parse(slot.start));
  const holder = await tokenFor(request, TENANT_A, a.url);
  const held = await Promise.all(
    slots.map(async (slot, i) => {
      const response = await request.post(`${servers[i % 2]!.url}${RESERVE_PATH}`, {
        headers: bearer(holder),
        data: reservationBody({ nrSeqAgenda: slot, cdPessoaFisica: 930_000 + i }),
      });
      return (await response.json()).TOKEN_RESERVA_P as string;
    }),
  );

  // Eight patients of two tenants wait for any of the eight slots.
  const tenants = [await tokenFor(request, TENANT_A, a.url), await tokenFor(request, TENANT_B, b.url)];
  for (let i = 0; i < COUNT; i++) {
    const response = await request.post(`${servers[i % 2]!.url}${apiPath(routes.addWaitlistEntry)}`, {
      headers: bearer(tenants[i % 2]!),
      data: waitlistEntryBody({
        cdAgendas: [AGENDA],
        de: Math.min(...starts) - 60_000,
        ate: Math.max(...starts) + 60_000,
        cdPessoaFisica: 930_500 + i,
      }),
    });
    expect(response.status()).toBe(201);
  }

  // Every slot released at once through both instances; then one of them dies mid-pass.
  await Promise.all(
    slots.map((slot, i) =>
      request.post(`${servers[i % 2]!.url}${RESERVE_PATH}`, {
        headers: bearer(holder),
        data: reservationBody({ nrSeqAgenda: slot, cdPessoaFisica: 930_000 + i, ieOpcao: 'CR', tokenReservaCanc: held[i] }),
      }),
    ),
  );
  await a.stop('SIGKILL');
  const killedMidOffer = (a.logs().match(/waitlist\.offered/g) ?? []).length;

  // The survivor settles: no entry stays half-offered, and every freed slot is held again once.
  const settled = async () => {
    const entries = await queryDatabase<{ status: string; n: string }>(
      databaseUrl,
      `select status, count(*) as n from waitlist_entries group by status`,
    );
    const holds = await queryDatabase<{ nr_seq_agenda: string; n: string }>(
      databaseUrl,
      `select nr_seq_agenda, count(*) as n from reservations where cd_agenda = ${AGENDA} and status = 'active' group by nr_seq_agenda`,
    );
    return {
      entries: Object.fromEntries(entries.map((row) => [row.status, Number(row.n)])),
      holdsPerSlot: holds.map((row) => Number(row.n)),
    };
  };
  await expect
    .poll(
      async () => {
        const { entries, holdsPerSlot } = await settled();
        return (
          entries.reservando === undefined && holdsPerSlot.length === COUNT && (entries.ofertada ?? 0) + (entries.aguardando ?? 0) === COUNT
        );
      },
      { timeout: 90_000, intervals: [1000] },
    )
    .toBe(true);

  const { entries, holdsPerSlot } = await settled();
  expect(holdsPerSlot).toEqual(Array.from({ length: COUNT }, () => 1));
  expect(Object.values(entries).reduce((sum, n) => sum + n, 0)).toBe(COUNT);
  // Each offer out holds a slot of its own, and no slot is offered to two entries.
  const offers = await queryDatabase<{ nr_seq_agenda: string; token: string }>(
    databaseUrl,
    `select nr_seq_agenda, token from waitlist_offers where status = 'ofertada'`,
  );
  expect(offers).toHaveLength(entries.ofertada ?? 0);
  expect(new Set(offers.map((offer) => offer.nr_seq_agenda)).size).toBe(offers.length);
  const active = await queryDatabase<{ token: string }>(
    databaseUrl,
    `select token from reservations where cd_agenda = ${AGENDA} and status = 'active'`,
  );
  const activeTokens = new Set(active.map((row) => row.token));
  expect(offers.every((offer) => activeTokens.has(offer.token))).toBe(true);
  // Whether the kill landed between a claim and its answer varies run by run: said, not asserted.
  const abandoned = (b.logs().match(/waitlist\.claim_abandoned/g) ?? []).length;
  test
    .info()
    .annotations.push({ type: 'offers', description: `killed instance made ${killedMidOffer}; claims it abandoned: ${abandoned}` });
});
