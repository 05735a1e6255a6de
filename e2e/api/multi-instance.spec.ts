import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { bearer, reservationBody, RESERVE_PATH } from '../support/api';
import { adminDatabaseUrl, createDatabase, dropDatabase, queryDatabase } from '../support/databases';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { AGENDA_COUNT, buildTestSeed, SLOTS_PER_AGENDA, slotOf, TENANT_A } from '../support/test-seed';

/**
 * Two app processes on one PostgreSQL database, as behind a load balancer: started together on an
 * empty database they migrate and seed it once; they share AUTH_SECRET, so a token from one is
 * good at the other; and simultaneous reservations of one slot spread over both have exactly one
 * winner. Runs in `npm run test:e2e:pg` (E2E_DATABASE_URL); agendas 930–939 are this spec's.
 */
const adminUrl = adminDatabaseUrl();
test.skip(!adminUrl, 'needs a server database: run with E2E_DATABASE_URL (npm run test:e2e:pg)');
test.describe.configure({ mode: 'serial' });

let databaseUrl: string;
let servers: RunningServer[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  if (!adminUrl) return;
  databaseUrl = await createDatabase(adminUrl, 'multi');
  const shared = { DATABASE_URL: databaseUrl, AUTH_SECRET: randomBytes(32).toString('base64url') };
  // Started at the same moment: both race for the migration lock and the seed on the empty database.
  servers = await Promise.all([0, 1].map((index) => startServer({ dataDir: newDataDir(`multi-${index}`), env: shared })));
  // The first request opens (migrates, seeds) the database; send one to each at the same time.
  await Promise.all(servers.map((server) => fetch(`${server.url}/api/health/ready`)));
});

test.afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  if (adminUrl && databaseUrl) await dropDatabase(adminUrl, databaseUrl);
});

async function tokenAt(request: APIRequestContext, server: RunningServer): Promise<string> {
  const response = await request.post(`${server.url}/api/v1/auth/token`, {
    form: { grant_type: 'client_credentials', client_id: TENANT_A.clientId, client_secret: TENANT_A.clientSecret },
  });
  expect(response.status()).toBe(200);
  return (await response.json()).access_token;
}

test('instances started together migrate and seed the database once', async () => {
  const migrations = await queryDatabase<{ total: string; distinct_names: string }>(
    databaseUrl,
    'select count(*) as total, count(distinct name) as distinct_names from knex_migrations',
  );
  expect(Number(migrations[0]?.total)).toBeGreaterThan(0);
  expect(migrations[0]?.total).toBe(migrations[0]?.distinct_names);
  const counts = await queryDatabase<{ seeds: string; clients: string; slots: string }>(
    databaseUrl,
    `select (select count(*) from app_meta where meta_key = 'seeded_at') as seeds,
            (select count(*) from api_clients) as clients,
            (select count(*) from slots) as slots`,
  );
  expect(counts[0]).toEqual({
    seeds: '1',
    clients: String(buildTestSeed().apiClients.length),
    slots: String(AGENDA_COUNT * SLOTS_PER_AGENDA + 1),
  });
});

test('a token issued by one instance is accepted by the other', async ({ request }) => {
  const [a, b] = servers as [RunningServer, RunningServer];
  for (const [issuer, verifier] of [
    [a, b],
    [b, a],
  ] as const) {
    const token = await tokenAt(request, issuer);
    const response = await request.get(`${verifier.url}/api/v2/avaliacao-saude/configuracao-web-hook`, { headers: bearer(token) });
    expect(response.status()).toBe(200);
    expect((await response.json()).length).toBeGreaterThan(0);
  }
});

test('40 simultaneous reservations of one slot over both instances: exactly one wins', async ({ request }) => {
  const [a, b] = servers as [RunningServer, RunningServer];
  const tokens = [await tokenAt(request, a), await tokenAt(request, b)];
  const slot = slotOf(930, 0);
  const responses = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      request.post(`${servers[i % 2]?.url}${RESERVE_PATH}`, {
        headers: bearer(tokens[i % 2] ?? ''),
        data: reservationBody({ nrSeqAgenda: slot, cdPessoaFisica: 930_100 + i }),
      }),
    ),
  );
  const answers = await Promise.all(responses.map(async (response) => ({ status: response.status(), body: await response.json() })));
  const winners = answers.filter((answer) => answer.body.CODIGO_P === '0');
  const losers = answers.filter((answer) => answer.body.CODIGO_P === '2');
  expect(winners).toHaveLength(1);
  expect(winners[0]?.status).toBe(200);
  expect(losers).toHaveLength(39);
  expect(losers.every((answer) => answer.status === 409)).toBe(true);
  const active = await queryDatabase(databaseUrl, `select token from reservations where cd_agenda = 930 and status = 'active'`);
  expect(active).toEqual([{ token: winners[0]?.body.TOKEN_RESERVA_P }]);

  // The reservation made through one instance is released through the other.
  const winnerIndex = answers.indexOf(winners[0] as (typeof answers)[number]);
  const other = servers[(winnerIndex + 1) % 2] as RunningServer;
  const release = await request.post(`${other.url}${RESERVE_PATH}`, {
    headers: bearer(tokens[(winnerIndex + 1) % 2] ?? ''),
    data: reservationBody({
      nrSeqAgenda: slot,
      cdPessoaFisica: 930_100 + winnerIndex,
      ieOpcao: 'CR',
      tokenReservaCanc: winners[0]?.body.TOKEN_RESERVA_P,
    }),
  });
  expect(await release.json()).toMatchObject({ CODIGO_P: '1' });
});

test('simultaneous reservations of overlapping slots of one agenda: the agenda lock decides', async ({ request }) => {
  // 60-minute reservations from slots 0..3 of agenda 931 overlap their neighbours: with a correct
  // lock at most every other one can win, and the winners never overlap.
  const [a, b] = servers as [RunningServer, RunningServer];
  const tokens = [await tokenAt(request, a), await tokenAt(request, b)];
  const responses = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      request.post(`${servers[i % 2]?.url}${RESERVE_PATH}`, {
        headers: bearer(tokens[i % 2] ?? ''),
        data: reservationBody({ nrSeqAgenda: slotOf(931, i % 4), nrMinDuracao: 60, cdPessoaFisica: 931_100 + i }),
      }),
    ),
  );
  const codes = await Promise.all(responses.map(async (response) => (await response.json()).CODIGO_P as string));
  expect(codes.every((code) => code === '0' || code === '2')).toBe(true);
  const active = await queryDatabase<{ start_ms: string; end_ms: string }>(
    databaseUrl,
    `select start_ms, end_ms from reservations where cd_agenda = 931 and status = 'active' order by start_ms`,
  );
  expect(active.length).toBe(codes.filter((code) => code === '0').length);
  expect(active.length).toBeGreaterThanOrEqual(1);
  for (let i = 1; i < active.length; i++) {
    expect(Number(active[i]?.start_ms)).toBeGreaterThanOrEqual(Number(active[i - 1]?.end_ms));
  }
});

test('an idempotent retry answered by the other instance replays the first answer', async ({ request }) => {
  const [a, b] = servers as [RunningServer, RunningServer];
  const body = reservationBody({ nrSeqAgenda: slotOf(933, 0), cdPessoaFisica: 933_001 });
  const key = `multi-${randomBytes(8).toString('hex')}`;
  const first = await request.post(`${a.url}${RESERVE_PATH}`, {
    headers: { ...bearer(await tokenAt(request, a)), 'Idempotency-Key': key },
    data: body,
  });
  expect(first.status()).toBe(200);
  const answer = await first.json();
  expect(answer.CODIGO_P).toBe('0');

  const retry = await request.post(`${b.url}${RESERVE_PATH}`, {
    headers: { ...bearer(await tokenAt(request, b)), 'Idempotency-Key': key },
    data: body,
  });
  expect(retry.status()).toBe(200);
  expect(retry.headers()['idempotency-replayed']).toBe('true');
  expect(await retry.json()).toEqual(answer);
  const active = await queryDatabase(databaseUrl, `select token from reservations where cd_agenda = 933 and status = 'active'`);
  expect(active).toEqual([{ token: answer.TOKEN_RESERVA_P }]);
});
