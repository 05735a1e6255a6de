import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, FLAGS_OFF, RESERVE_PATH, reservationBody, tokenFor } from '../support/api';
import { privateDatabase } from '../support/databases';
import { Receiver } from '../support/receiver';
import { freePort, newDataDir, startServer, type RunningServer } from '../support/server';
import { PRODUCER, TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * GET /metrics (issue 20): Prometheus' text format behind METRICS_TOKEN, with the families
 * operators alert on, counting what this spec does through the real API, the real delivery worker
 * and a real receiver; and a real Prometheus (Debian's package) scraping it with the token.
 */
test.describe.configure({ mode: 'serial' });

const METRICS_TOKEN = 'e2e-metrics-token-2026-0123456789';
const scrapeHeaders = { Authorization: `Bearer ${METRICS_TOKEN}` };
const ATTEMPT_OUTCOMES = [
  'delivered',
  'http_4xx',
  'http_5xx',
  'http_other',
  'timeout',
  'connection_refused',
  'dns',
  'blocked',
  'redirect',
  'network',
];

let server: RunningServer;
let database: Awaited<ReturnType<typeof privateDatabase>> | undefined;
let receiver: Receiver;
let api: APIRequestContext;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  receiver = await new Receiver().start();
  // A database of its own on PostgreSQL runs: its events fan out to every configuration of the tenant.
  database = await privateDatabase('metrics');
  receiver.script('/ok', { status: 204 });
  server = await startServer({
    dataDir: newDataDir('metrics'),
    env: { ...database.env, METRICS_TOKEN, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
  });
  api = await playwright.request.newContext({ baseURL: server.url });
});

test.afterAll(async () => {
  await api?.dispose();
  await receiver?.stop();
  await server?.stop();
  await database?.drop();
});

/** The value of one sample, `name{labels}`, in the exposition text; labels in the order Prometheus writes them (sorted). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrapeText(): Promise<string> {
  const response = await api.get('/metrics', { headers: scrapeHeaders });
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('text/plain; version=0.0.4');
  return response.text();
}

function attemptOutcomes(text: string): [string, number][] {
  return [...text.matchAll(/^webhook_attempts_total\{outcome="([^"]+)"\} (\d+)/gm)].map(([, outcome, n]) => [outcome!, Number(n)]);
}

/** Attempts that ended any way but delivered. */
function failedAttempts(text: string): number {
  return attemptOutcomes(text).reduce((sum, [outcome, n]) => (outcome === 'delivered' ? sum : sum + n), 0);
}

/** Three events to tenant A's receiver, answered 204: three delivered attempts. */
async function deliverThree(idPrefix: string) {
  const tenant = bearer(await tokenFor(api, TENANT_A));
  const configured = await api.put(apiPath(routes.getWebhookConfiguration, { id: WEBHOOK_IDS.a1 }), {
    headers: tenant,
    data: { url: receiver.url('/ok'), headers: [], ...FLAGS_OFF, eventoAvaliacaoSaudeAprovada: true },
  });
  expect(configured.status()).toBe(200);
  const producer = bearer(await tokenFor(api, PRODUCER));
  const before = receiver.at('/ok').length;
  for (let i = 0; i < 3; i++) {
    const published = await api.post(apiPath(routes.publishEvent), {
      headers: producer,
      data: { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_A.usuarioId, idEvento: `${idPrefix}-${i}`, dados: {} },
    });
    expect(published.status()).toBe(202);
  }
  await receiver.waitFor('/ok', before + 3);
}

test('without METRICS_TOKEN the endpoint is off: a 404 problem that says how to switch it on', async ({ request }) => {
  // The run's shared server, started without METRICS_TOKEN.
  const response = await request.get('/metrics', { headers: scrapeHeaders, maxRedirects: 0 });
  expect(response.status()).toBe(404);
  expect(response.headers()['content-type']).toContain('application/problem+json');
  expect(((await response.json()) as { detail: string }).detail).toContain('METRICS_TOKEN');
});

test('without the token /metrics is a 401 problem with a Bearer challenge, never the sign-in page', async () => {
  const attempts: Record<string, string>[] = [
    {},
    { Authorization: 'Bearer not-the-metrics-token-at-all' },
    { Authorization: `Basic ${METRICS_TOKEN}` },
  ];
  for (const headers of attempts) {
    const response = await api.get('/metrics', { headers, maxRedirects: 0 });
    expect(response.status()).toBe(401);
    expect(response.headers()['content-type']).toContain('application/problem+json');
    expect(response.headers()['www-authenticate']).toContain('Bearer');
    expect(await response.text()).not.toContain('http_server_request_duration_seconds');
  }
});

test('the families count what the API, the console and the delivery worker did, with no tenant in any label', async () => {
  const tenant = bearer(await tokenFor(api, TENANT_A));
  const reserved = await api.post(RESERVE_PATH, { headers: tenant, data: reservationBody() });
  expect(reserved.status()).toBe(200);
  const reservation = (await reserved.json()) as { CODIGO_P: string; TOKEN_RESERVA_P: string };
  expect(reservation.CODIGO_P).toBe('0');
  const released = await api.post(RESERVE_PATH, {
    headers: tenant,
    data: reservationBody({ ieOpcao: 'CR', tokenReservaCanc: reservation.TOKEN_RESERVA_P }),
  });
  expect(((await released.json()) as { CODIGO_P: string }).CODIGO_P).toBe('1');
  const refused = await api.get(apiPath(routes.listWebhookConfigurations), { headers: bearer('forged.token.value') });
  expect(refused.status()).toBe(401);
  expect((await api.get('/sign-in')).status()).toBe(200);
  await deliverThree('metricas');
  // The receiver has them; the worker records each outcome a moment later.
  await expect.poll(async () => sample(await scrapeText(), 'webhook_attempts_total{outcome="delivered"}')).toBe(3);
  // Tenant A's nine other configurations point at names that do not resolve here: their attempts
  // fail, by a class of their own (once the resolver has answered), and wait for their retries.
  await expect.poll(async () => failedAttempts(await scrapeText())).toBeGreaterThan(0);

  const text = await scrapeText();
  expect(sample(text, 'scheduling_reservations_total{ie_opcao="R",codigo_p="0"}')).toBe(1);
  expect(sample(text, 'scheduling_reservations_total{ie_opcao="CR",codigo_p="1"}')).toBe(1);
  expect(sample(text, 'scheduling_backend_call_duration_seconds_count{backend="embedded",outcome="answered"}')).toBe(2);
  expect(sample(text, 'http_server_request_duration_seconds_count{operation="reserveOrReleaseSlot",method="POST",status="200"}')).toBe(2);
  expect(
    sample(text, 'http_server_request_duration_seconds_count{operation="console.page",method="GET",status="200"}'),
  ).toBeGreaterThanOrEqual(1);
  expect(sample(text, 'auth_refusals_total{reason="invalid_token"}')).toBe(1);
  expect(sample(text, 'webhook_attempts_total{outcome="delivered"}')).toBe(3);
  expect(sample(text, 'webhook_attempt_duration_seconds_count{outcome="delivered"}')).toBe(3);
  expect(sample(text, 'webhook_delivery_latency_seconds_count')).toBe(3);
  for (const [outcome] of attemptOutcomes(text)) expect(ATTEMPT_OUTCOMES).toContain(outcome);
  expect(sample(text, 'webhook_backlog_deliveries')).toBeGreaterThanOrEqual(0);
  expect(sample(text, 'webhook_backlog_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
  expect(sample(text, 'webhook_configurations{state="disabled"}')).toBe(0);
  expect(sample(text, 'webhook_configurations{state="active"}')).toBeGreaterThanOrEqual(3);
  expect(sample(text, 'db_pool_connections{state="pending"}')).toBe(0);
  // Node's own: CPU, memory and event-loop lag.
  expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);

  // Nothing that names a tenant, a configuration, a client, a receiver or a patient.
  for (const secret of [
    TENANT_A.usuarioId,
    TENANT_A.clientId,
    WEBHOOK_IDS.a1,
    receiver.url('/ok'),
    reservation.TOKEN_RESERVA_P,
    '0012345678901',
  ]) {
    expect(text).not.toContain(secret);
  }
  // Every operation label is an operation id or one of the console's three.
  const operations = new Set([...text.matchAll(/operation="([^"]+)"/g)].map((match) => match[1]!));
  for (const operation of operations)
    expect(Object.keys(routes).concat(['unmatched', 'console.page', 'console.asset', 'console.auth'])).toContain(operation);
});

test('a path no operation has is counted as unmatched, not by its text', async () => {
  expect((await api.get('/api/v1/nao-existe-12345')).status()).toBe(404);
  const text = await scrapeText();
  expect(text).not.toContain('nao-existe-12345');
  expect(
    sample(text, 'http_server_request_duration_seconds_count{operation="unmatched",method="GET",status="404"}'),
  ).toBeGreaterThanOrEqual(1);
});

test('a real Prometheus scrapes it with the token and a PromQL query sees this spec’s deliveries', async () => {
  test.setTimeout(90_000);
  const binary = ['/usr/bin/prometheus', '/usr/local/bin/prometheus'].find((candidate) => fs.existsSync(candidate));
  expect(binary, 'Prometheus is installed (scripts/test-all.sh installs Debian’s package)').toBeDefined();
  const dir = newDataDir('prometheus');
  const port = await freePort();
  const target = new URL(server.url).host;
  fs.writeFileSync(
    path.join(dir, 'prometheus.yml'),
    [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      'scrape_configs:',
      '  - job_name: integration-console',
      '    metrics_path: /metrics',
      `    authorization: { type: Bearer, credentials: ${METRICS_TOKEN} }`,
      `    static_configs: [{ targets: ['${target}'] }]`,
    ].join('\n'),
  );
  let prometheus: ChildProcess | undefined;
  let output = '';
  try {
    prometheus = spawn(
      binary!,
      [
        `--config.file=${path.join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    prometheus.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    prometheus.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const query = async (promql: string) => {
      try {
        const response = await api.get(`http://127.0.0.1:${port}/api/v1/query`, { params: { query: promql } });
        const body = (await response.json()) as { data?: { result?: { value: [number, string] }[] } };
        const value = body.data?.result?.[0]?.value[1];
        return value === undefined ? undefined : Number(value);
      } catch {
        return undefined; // not listening yet
      }
    };
    await expect.poll(() => query('up{job="integration-console"}'), { timeout: 30_000, message: output }).toBe(1);
    const delivered = (await query('sum(webhook_attempts_total{outcome="delivered"})')) ?? 0;
    await deliverThree('prometheus');
    await expect.poll(() => query('sum(webhook_attempts_total{outcome="delivered"})'), { timeout: 30_000 }).toBe(delivered + 3);
    expect(await query('webhook_backlog_deliveries')).toBeGreaterThanOrEqual(0);
  } finally {
    prometheus?.kill('SIGTERM');
  }
});
