#!/usr/bin/env node
// Webhook delivery throughput and latency (issue 10 §6): a receiver on 127.0.0.1 that answers 204
// at once; events published through the real API to a tenant with --fanout configurations, all
// pointing at the receiver (a seed of the bench's own); each event carries its publish time, so the
// receiver measures intake-to-receipt. Prints, for one instance on the embedded default, then one and
// two instances on PostgreSQL (DATABASE_ADMIN_URL, default the local server; --skip-pg to skip):
//   1. capacity: events published as fast as --concurrency connections allow → deliveries/s received;
//   2. latency at half that rate, open loop: p50, p99, max intake-to-receipt.
//   3. isolation (issue 18), on the embedded default with the shipped delivery settings: tenant A's
//      receiver accepts connections and never answers, with --hung-events queued to it; tenant C's
//      answers after 2 s, with 40 events queued; tenant B's answers at once and gets one event a
//      second for --healthy-seconds. Prints B's publish-to-receipt latency and how long C's
//      deliveries took, each waited for at most 60 and 90 s.
//   4. many endpoints down (issue 27), on the embedded default and on two instances on PostgreSQL,
//      with the shipped delivery settings: tenant H has --down-configs configurations whose receivers
//      accept connections and never answer, and gets 3 events (fanned out to each of them); tenant B's
//      receiver answers at once and gets one event a second for --healthy-seconds. Prints B's
//      publish-to-receipt p50/p99/max, waited for at most 60 s.
//   5. rate limit (issue 31), on two instances on PostgreSQL: one configuration limited to
//      --rate-limit deliveries a second with --rate-events events queued to it at once; prints the
//      highest count in any 10 s (and any 1 s) window at its receiver, and the same tenant's other
//      configurations with that backlog draining beside them against without it: at a fixed load
//      (deliveries/s and latency) and at capacity (theirs, and theirs plus the limited one's).
//   6. ordered delivery's cost (issue 31), on the embedded default: --rate-events events to one
//      configuration as fast as it takes them, with entregaOrdenada off and then on; deliveries/s each.
//   7. broker destinations (issue 29), on the embedded default: --rate-events events to one
//      configuration as fast as it takes them, pointed in turn at the HTTP receiver, at a RabbitMQ
//      exchange (127.0.0.1:5672, guest/guest; publisher confirms) and at a NATS JetStream subject
//      (127.0.0.1:4222; the stream's acknowledgement); deliveries/s each, in the same run.
//   8. payload control (issue 46), on the embedded default: --rate-events events to one configuration
//      as fast as it takes them, plain and then with a content filter (every event passes) and a
//      small transformation (QuickJS, on the sandbox's worker threads), twice each in turn, same run;
//      deliveries/s each and the controlled ones' share of the plain ones'.
//   9. CPU per delivery (issue 45 §5), only with --only cpu: the product against plain-delivery-loop.mjs
//      (the same durable work and nothing else), 8 configurations of 4 tenants, --cpu-deliveries
//      pre-queued, rounds interleaved, embedded and on two instances on PostgreSQL; deliveries/s,
//      CPU ms per delivery (servers' /proc), their ratios and the publish API's intake (scripts/bench/README.md).
//      --server api: the lean API server instead of npm start; --profile: a CPU profile of the delivery window;
//      --publish-batch N: the intake publishes N events a request (POST …/eventos/lote) instead of one.
// With --before DIR (another checkout, built), sections 1-2 run on its build and on this one in turn,
// --rounds times each, so that a change's effect on throughput is read in one run.
// A script that prints figures; it asserts nothing. Needs `npm run build` first.
//   node scripts/bench/deliveries.mjs [--events 1000] [--fanout 10] [--concurrency 16] [--skip-pg]
//     [--only throughput|isolation|many-down|rate-limit|ordered|brokers|payload] [--hung-events 1000] [--healthy-seconds 10] [--down-configs 300]
//     [--rate-limit 50] [--rate-events 2000] [--before ../other-checkout] [--rounds 2]
//     [--only cpu [--cpu-deliveries 4000] [--server start|api] [--profile] [--publish-batch 50]]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { inspector, summarize } from './cpu-profile.mjs';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '1000' },
    fanout: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '16' },
    port: { type: 'string', default: '3980' },
    'skip-pg': { type: 'boolean', default: false },
    only: { type: 'string' },
    'hung-events': { type: 'string', default: '1000' },
    'healthy-seconds': { type: 'string', default: '10' },
    'down-configs': { type: 'string', default: '300' },
    'rate-limit': { type: 'string', default: '50' },
    'rate-events': { type: 'string', default: '2000' },
    before: { type: 'string' },
    rounds: { type: 'string' },
    server: { type: 'string', default: 'start' },
    'cpu-deliveries': { type: 'string', default: '4000' },
    profile: { type: 'boolean', default: false },
    'publish-batch': { type: 'string', default: '1' },
    'admin-url': { type: 'string', default: process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const root = path.resolve(import.meta.dirname, '..', '..');
const EVENTS = Number(values.events);
const CONCURRENCY = Number(values.concurrency);
/** Events per publish request in the CPU section's intake (1: the single publish). */
const PUBLISH_BATCH = Math.max(1, Math.min(100, Number(values['publish-batch'])));
const FANOUT = Number(values.fanout);
const TENANT = { clientId: 'bench-tenant', clientSecret: 'bench-tenant-secret', usuarioId: 'bbbbbbbb-0000-4000-8000-00000000bbbb' };
const PRODUCER = { clientId: 'bench-producer', clientSecret: 'bench-producer-secret' };
/** The isolation scenario's tenants: one configuration each, on the receiver's paths below. */
const ISOLATION = {
  hung: { usuarioId: 'aaaaaaaa-1111-4000-8000-00000000000a', path: '/hung' },
  healthy: { usuarioId: 'bbbbbbbb-1111-4000-8000-00000000000b', path: '/healthy' },
  slow: { usuarioId: 'cccccccc-1111-4000-8000-00000000000c', path: '/slow' },
};
const SLOW_ANSWER_MS = 2000;
/** The many-endpoints-down scenario's tenants: H with DOWN_CONFIGS hung configurations, B with one healthy. */
const MANY_DOWN = {
  hostile: { usuarioId: 'eeeeeeee-2222-4000-8000-00000000000e', path: '/hung/' },
  healthy: { usuarioId: 'ffffffff-2222-4000-8000-00000000000f', path: '/many-down-healthy' },
};
const DOWN_CONFIGS = Number(values['down-configs']);
/** The rate-limit scenario's configuration: the bench tenant's, on its own event type and path. */
const LIMITED = { id: 'cccccccc-0000-4000-8000-0000000000ff', path: '/limitado', tipo: 'eventoAvaliacaoSaudeArquivada' };
/**
 * The CPU section's workload (issue 45 §5): 8 configurations of 4 tenants (2 each) on the receiver's
 * own paths, the product's and the plain loop's (plain-delivery-loop.mjs), with --cpu-deliveries due at once.
 */
const CPU = {
  productPath: '/cpu-product',
  plainPath: '/cpu-plain',
  tenants: Array.from({ length: 4 }, (_, t) => `99999999-${String(t).padStart(4, '0')}-4000-8000-000000000000`),
  configsPerTenant: 2,
};
const CPU_DELIVERIES = Number(values['cpu-deliveries']);
/** Receipts on the CPU section's paths; the product's are held (not answered) while `gate` is closed. */
const cpuReceived = { [CPU.productPath]: 0, [CPU.plainPath]: 0 };
let cpuGate = null;
function cpuReceipt(request, response) {
  request.resume();
  request.on('end', () => {
    cpuReceived[request.url]++;
    if (request.url === CPU.productPath && cpuGate) return void cpuGate.push(response);
    response.writeHead(204).end();
  });
}

// ---------------------------------------------------------------------------------------------
// The receiver: records (receipt time − publish time) per event id.

const latencies = new Map();
/** Arrival times at the rate-limited configuration's path. */
const limitedArrivals = [];
let received = 0;
/** Receipts of the isolation scenario, by path: latency (ms) per event. */
const byPath = new Map();
const receiver = http.createServer((request, response) => {
  if (request.url === CPU.productPath || request.url === CPU.plainPath) return void cpuReceipt(request, response);
  // A hung receiver: it reads the request and never answers (the attempt times out).
  if (request.url === ISOLATION.hung.path || request.url.startsWith(MANY_DOWN.hostile.path)) return void request.resume();
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    const { data } = JSON.parse(body);
    if (request.url === LIMITED.path) limitedArrivals.push(Date.now());
    if (request.url !== '/bench') {
      const seen = byPath.get(request.url) ?? new Map();
      byPath.set(request.url, seen);
      if (!seen.has(data.idEvento)) seen.set(data.idEvento, Date.now() - data.sentAt);
      if (request.url === ISOLATION.slow.path) return void setTimeout(() => response.writeHead(204).end(), SLOW_ANSWER_MS);
      return void response.writeHead(204).end();
    }
    received++;
    const key = `${data.idEvento}:${request.headers['webhook-id']}`;
    if (data.sentAt && !latencies.has(key)) latencies.set(key, Date.now() - data.sentAt);
    response.writeHead(204).end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverBase = `http://127.0.0.1:${receiver.address().port}`;
const receiverUrl = `${receiverBase}/bench`;

/** The bench's seed: a tenant with FANOUT configurations on the receiver, and a producer. */
function seedFile() {
  const file = path.join(os.tmpdir(), `ic-bench-deliveries-seed-${process.pid}.json`);
  const configs = Array.from({ length: FANOUT }, (_, index) => ({
    id: `cccccccc-0000-4000-8000-${String(index).padStart(12, '0')}`,
    usuarioId: TENANT.usuarioId,
    sistemaOrigem: 1,
    url: receiverUrl,
    eventoAvaliacaoSaudeAprovada: true,
  }));
  configs.push({
    id: LIMITED.id,
    usuarioId: TENANT.usuarioId,
    sistemaOrigem: 1,
    url: `${receiverBase}${LIMITED.path}`,
    [LIMITED.tipo]: true,
  });
  Object.entries(ISOLATION).forEach(([name, tenant], index) =>
    configs.push({
      id: `dddddddd-0000-4000-8000-${String(index).padStart(12, '0')}`,
      usuarioId: tenant.usuarioId,
      sistemaOrigem: 1,
      url: `${receiverBase}${tenant.path}`,
      eventoAvaliacaoSaudeAprovada: true,
      headers: [{ chave: 'X-Bench', valor: name }],
    }),
  );
  for (let index = 0; index < DOWN_CONFIGS; index++) {
    configs.push({
      id: `eeeeeeee-0000-4000-8000-${String(index).padStart(12, '0')}`,
      usuarioId: MANY_DOWN.hostile.usuarioId,
      sistemaOrigem: 1,
      url: `${receiverBase}${MANY_DOWN.hostile.path}${index}`,
      eventoAvaliacaoSaudeAprovada: true,
    });
  }
  configs.push({
    id: 'ffffffff-0000-4000-8000-000000000000',
    usuarioId: MANY_DOWN.healthy.usuarioId,
    sistemaOrigem: 1,
    url: `${receiverBase}${MANY_DOWN.healthy.path}`,
    eventoAvaliacaoSaudeAprovada: true,
  });
  const apiClients = [
    { ...TENANT, name: 'Bench tenant', sistemaOrigem: 1 },
    { ...PRODUCER, name: 'Bench producer', usuarioId: TENANT.usuarioId, sistemaOrigem: 1, scopes: ['eventos:publicar'] },
  ];
  fs.writeFileSync(file, JSON.stringify({ apiClients, webhookConfigs: configs }));
  return file;
}
const SEED_FILE = seedFile();

// ---------------------------------------------------------------------------------------------

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function call(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, agent }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode, text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function token(base, clientId, secret) {
  const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }).toString();
  const { text } = await call(`${base}/api/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  return `Bearer ${JSON.parse(text).access_token}`;
}

/** A server of this checkout's build, or of `dir`'s (--before). */
function startServer(port, env, dir = root, execArgv = []) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-bench-deliveries-'));
  const entry = values.server === 'api' ? 'serve-api.mjs' : 'serve.mjs';
  const child = spawn(process.execPath, [...execArgv, path.join(dir, 'scripts', entry)], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // The bench measures how fast deliveries go out, with one producer publishing as fast as
      // --concurrency connections allow: far past the shipped per-producer rate limit (200/s).
      MAX_EVENTS_PER_SECOND: '1000000',
      SEED_FILE,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { url: `http://127.0.0.1:${port}`, child, dataDir };
}

async function ready(server) {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      if ((await call(`${server.url}/api/health/ready`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become ready');
}

async function stop(server) {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}

function publishBody(id, usuarioId = TENANT.usuarioId, tipo = 'eventoAvaliacaoSaudeAprovada') {
  return JSON.stringify({ tipo, usuarioId, idEvento: id, dados: { sentAt: Date.now() } });
}

async function waitForReceipts(target, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (received < target && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Closed loop: publish as fast as CONCURRENCY connections allow, spread over the servers. */
async function capacity(bases, producers, label) {
  latencies.clear();
  received = 0;
  let next = 0;
  const started = performance.now();
  const worker = async (index) => {
    while (next < EVENTS) {
      const i = next++;
      const server = index % bases.length;
      const { status } = await call(`${bases[server]}/api/v2/avaliacao-saude/eventos`, {
        method: 'POST',
        headers: { authorization: producers[server], 'content-type': 'application/json' },
        body: publishBody(`${label}-cap-${i}`),
      });
      if (status !== 202) throw new Error(`publish answered ${status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, index) => worker(index)));
  const publishedIn = (performance.now() - started) / 1000;
  await waitForReceipts(EVENTS * FANOUT);
  const seconds = (performance.now() - started) / 1000;
  const rate = received / seconds;
  console.log(
    `${label}: ${EVENTS} events published in ${publishedIn.toFixed(1)} s (${(EVENTS / publishedIn).toFixed(0)}/s); ` +
      `${received} deliveries (fan-out ${FANOUT}) received in ${seconds.toFixed(1)} s → ${rate.toFixed(0)} deliveries/s`,
  );
  return rate;
}

/** Open loop at `rate` events/s for `count` events: intake-to-receipt latency. */
async function latencyAt(bases, producers, label, rate, count) {
  latencies.clear();
  received = 0;
  const started = performance.now();
  const inFlight = [];
  for (let i = 0; i < count; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const server = i % bases.length;
    inFlight.push(
      call(`${bases[server]}/api/v2/avaliacao-saude/eventos`, {
        method: 'POST',
        headers: { authorization: producers[server], 'content-type': 'application/json' },
        body: publishBody(`${label}-lat-${i}`),
      }),
    );
  }
  await Promise.all(inFlight);
  await waitForReceipts(count * FANOUT);
  const seconds = (performance.now() - started) / 1000;
  const sorted = [...latencies.values()].sort((a, b) => a - b);
  const figures = { delivered: received / seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  console.log(
    `${label} at ${(rate * FANOUT).toFixed(0)} deliveries/s offered, ${count} events: ${received} of ${count * FANOUT} delivered (${figures.delivered.toFixed(0)}/s), ` +
      `intake-to-receipt p50 ${figures.p50} ms, p99 ${figures.p99} ms, max ${sorted.at(-1)} ms`,
  );
  return figures;
}

async function run(label, servers) {
  await Promise.all(servers.map(ready));
  const bases = servers.map((server) => server.url);
  const producers = await Promise.all(bases.map((base) => token(base, PRODUCER.clientId, PRODUCER.clientSecret)));
  await capacity(bases, producers, `${label} (warm-up)`);
  const rate = await capacity(bases, producers, label);
  // Half the delivery capacity, in events: each event makes FANOUT deliveries.
  const eventRate = rate / FANOUT / 2;
  await latencyAt(bases, producers, label, eventRate, Math.max(50, Math.round(eventRate * 10)));
  return rate;
}

/**
 * Issue 18's noisy neighbour: a hung receiver's backlog and a slow receiver's queue must not delay
 * a healthy receiver's events. The shipped delivery settings (timeout, concurrency) apply.
 */
async function isolation(server) {
  await ready(server);
  const producer = await token(server.url, PRODUCER.clientId, PRODUCER.clientSecret);
  const publish = async (tenant, id) => {
    const { status } = await call(`${server.url}/api/v2/avaliacao-saude/eventos`, {
      method: 'POST',
      headers: { authorization: producer, 'content-type': 'application/json' },
      body: publishBody(id, tenant.usuarioId),
    });
    if (status !== 202) throw new Error(`publish answered ${status}`);
  };
  const hungEvents = Number(values['hung-events']);
  const healthySeconds = Number(values['healthy-seconds']);
  const started = performance.now();
  for (let i = 0; i < hungEvents; i++) await publish(ISOLATION.hung, `hung-${i}`);
  for (let i = 0; i < 40; i++) await publish(ISOLATION.slow, `slow-${i}`);
  console.log(
    `isolation: ${hungEvents} events queued to the hung receiver and 40 to the slow one in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  for (let i = 0; i < healthySeconds; i++) {
    await publish(ISOLATION.healthy, `healthy-${i}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const healthy = () => byPath.get(ISOLATION.healthy.path) ?? new Map();
  const slow = () => byPath.get(ISOLATION.slow.path) ?? new Map();
  const waitFor = async (seen, count, ms) => {
    const deadline = Date.now() + ms;
    while (seen().size < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  await waitFor(healthy, healthySeconds, 60_000);
  const sorted = [...healthy().values()].sort((a, b) => a - b);
  console.log(
    `isolation: healthy receiver got ${sorted.length} of ${healthySeconds} events within 60 s` +
      (sorted.length
        ? `; publish-to-receipt p50 ${percentile(sorted, 50)} ms, p99 ${percentile(sorted, 99)} ms, max ${sorted.at(-1)} ms`
        : ''),
  );
  await waitFor(slow, 40, 90_000);
  const slowSorted = [...slow().values()].sort((a, b) => a - b);
  console.log(
    `isolation: slow receiver (${SLOW_ANSWER_MS} ms an answer) got ${slowSorted.length} of 40 events` +
      (slowSorted.length ? `, the last ${(slowSorted.at(-1) / 1000).toFixed(1)} s after it was published` : ''),
  );
}

/**
 * Issue 27's many endpoints down: one tenant's hundreds of hung receivers, each with deliveries
 * due, must not hold up another tenant's events. Publishes alternate between the servers.
 */
async function manyDown(label, servers) {
  await Promise.all(servers.map(ready));
  const producers = await Promise.all(servers.map((server) => token(server.url, PRODUCER.clientId, PRODUCER.clientSecret)));
  let turn = 0;
  const publish = async (tenant, id) => {
    const server = turn++ % servers.length;
    const { status } = await call(`${servers[server].url}/api/v2/avaliacao-saude/eventos`, {
      method: 'POST',
      headers: { authorization: producers[server], 'content-type': 'application/json' },
      body: publishBody(id, tenant.usuarioId),
    });
    if (status !== 202) throw new Error(`publish answered ${status}`);
  };
  for (let i = 0; i < 3; i++) await publish(MANY_DOWN.hostile, `${label}-down-${i}`);
  const healthySeconds = Number(values['healthy-seconds']);
  for (let i = 0; i < healthySeconds; i++) {
    await publish(MANY_DOWN.healthy, `${label}-up-${i}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const seen = () => byPath.get(MANY_DOWN.healthy.path) ?? new Map();
  const deadline = Date.now() + 60_000;
  while (seen().size < healthySeconds && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const sorted = [...seen().values()].sort((a, b) => a - b);
  byPath.delete(MANY_DOWN.healthy.path);
  console.log(
    `many endpoints down, ${label}: ${DOWN_CONFIGS} hung configurations × 3 events; the other tenant got ${sorted.length} of ${healthySeconds} events within 60 s` +
      (sorted.length
        ? `; publish-to-receipt p50 ${percentile(sorted, 50)} ms, p99 ${percentile(sorted, 99)} ms, max ${sorted.at(-1)} ms`
        : ''),
  );
}

/** The most arrivals in any window of `ms` (sliding, from each arrival). */
function busiest(times, ms) {
  let best = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i] - times[j] >= ms) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

/**
 * Issue 31's rate limit: a backlog queued at once to a configuration limited to RATE a second drains
 * at that rate across both instances, and the other configurations of the same tenant (the closest
 * neighbours: they share its tenant's slots) are not slowed by it. Measured two ways, alone and then
 * beside the draining backlog: at a fixed load (half their capacity alone), where "unaffected" means
 * the same deliveries/s and latency; and at capacity, where the limited configuration's own deliveries
 * take their share of the machine, so the sum of both is what must hold.
 */
async function rateLimit(label, servers) {
  await Promise.all(servers.map(ready));
  const bases = servers.map((server) => server.url);
  const producers = await Promise.all(bases.map((base) => token(base, PRODUCER.clientId, PRODUCER.clientSecret)));
  const rate = Number(values['rate-limit']);
  const count = Number(values['rate-events']);
  await capacity(bases, producers, `${label}, warm-up`);
  const alone = await capacity(bases, producers, `${label}, other configurations alone`);
  const eventRate = alone / FANOUT / 2;
  const loadEvents = Math.max(50, Math.round(eventRate * 10));
  const aloneAtLoad = await latencyAt(bases, producers, `${label}, other configurations alone`, eventRate, loadEvents);
  const tenant = await token(bases[0], TENANT.clientId, TENANT.clientSecret);
  const { status } = await call(`${bases[0]}/api/v2/avaliacao-saude/configuracao-web-hook/${LIMITED.id}`, {
    method: 'PUT',
    headers: { authorization: tenant, 'content-type': 'application/json' },
    body: JSON.stringify({ limiteEntregasPorSegundo: rate }),
  });
  if (status !== 200) throw new Error(`PUT answered ${status}`);
  limitedArrivals.length = 0;
  let next = 0;
  const queued = Array.from({ length: CONCURRENCY }, async (_, index) => {
    while (next < count) {
      const i = next++;
      const server = index % bases.length;
      const answer = await call(`${bases[server]}/api/v2/avaliacao-saude/eventos`, {
        method: 'POST',
        headers: { authorization: producers[server], 'content-type': 'application/json' },
        body: publishBody(`${label}-limitado-${i}`, TENANT.usuarioId, LIMITED.tipo),
      });
      if (answer.status !== 202) throw new Error(`publish answered ${answer.status}`);
    }
  });
  await Promise.all(queued);
  const besideAtLoad = await latencyAt(
    bases,
    producers,
    `${label}, other configurations beside the limited backlog`,
    eventRate,
    loadEvents,
  );
  const capacityFrom = Date.now();
  const beside = await capacity(bases, producers, `${label}, other configurations beside the limited backlog`);
  const limitedBeside = limitedArrivals.filter((at) => at >= capacityFrom).length / ((Date.now() - capacityFrom) / 1000);
  const deadline = Date.now() + (count / rate) * 1000 + 60_000;
  while (limitedArrivals.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  const times = [...limitedArrivals].sort((a, b) => a - b);
  const tenSeconds = busiest(times, 10_000);
  const percent = (part, whole) => `${((part / whole) * 100).toFixed(0)} %`;
  console.log(
    `rate limit ${rate}/s, ${label}: ${times.length} of ${count} queued deliveries arrived in ${((times.at(-1) - times[0]) / 1000).toFixed(1)} s; ` +
      `highest over any 10 s window ${(tenSeconds / 10).toFixed(1)}/s (${tenSeconds}), over any 1 s ${busiest(times, 1000)}`,
  );
  console.log(
    `  the other configurations at ${(eventRate * FANOUT).toFixed(0)} deliveries/s offered: ${besideAtLoad.delivered.toFixed(0)}/s beside the backlog ` +
      `against ${aloneAtLoad.delivered.toFixed(0)}/s alone (${percent(besideAtLoad.delivered, aloneAtLoad.delivered)}), ` +
      `p50 ${besideAtLoad.p50} ms against ${aloneAtLoad.p50} ms, p99 ${besideAtLoad.p99} ms against ${aloneAtLoad.p99} ms`,
  );
  console.log(
    `  at capacity: ${beside.toFixed(0)}/s beside it against ${alone.toFixed(0)}/s alone (${percent(beside, alone)}); with the limited ` +
      `configuration's own ${limitedBeside.toFixed(0)}/s meanwhile, ${(beside + limitedBeside).toFixed(0)}/s in all (${percent(beside + limitedBeside, alone)})`,
  );
}

/** Deliveries a second to the limited configuration's path (no limit set) with ordered delivery off, then on. */
async function ordering(label, server) {
  await ready(server);
  const producer = await token(server.url, PRODUCER.clientId, PRODUCER.clientSecret);
  const tenant = await token(server.url, TENANT.clientId, TENANT.clientSecret);
  const count = Number(values['rate-events']);
  const rates = {};
  for (const ordered of [false, true]) {
    const { status } = await call(`${server.url}/api/v2/avaliacao-saude/configuracao-web-hook/${LIMITED.id}`, {
      method: 'PUT',
      headers: { authorization: tenant, 'content-type': 'application/json' },
      body: JSON.stringify({ entregaOrdenada: ordered }),
    });
    if (status !== 200) throw new Error(`PUT answered ${status}`);
    limitedArrivals.length = 0;
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < count) {
          const i = next++;
          const answer = await call(`${server.url}/api/v2/avaliacao-saude/eventos`, {
            method: 'POST',
            headers: { authorization: producer, 'content-type': 'application/json' },
            body: publishBody(`${label}-ordem-${ordered}-${i}`, TENANT.usuarioId, LIMITED.tipo),
          });
          if (answer.status !== 202) throw new Error(`publish answered ${answer.status}`);
        }
      }),
    );
    const deadline = Date.now() + 300_000;
    while (limitedArrivals.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    rates[ordered ? 'on' : 'off'] = limitedArrivals.length / ((performance.now() - started) / 1000);
  }
  console.log(
    `ordered delivery, ${label}: ${count} events to one configuration: ${rates.off.toFixed(0)} deliveries/s unordered, ` +
      `${rates.on.toFixed(0)} deliveries/s ordered (${((rates.on / rates.off) * 100).toFixed(0)} %)`,
  );
}

/** One configuration's deliveries a second: `count` events published as fast as CONCURRENCY connections allow, until all arrived. */
async function drainRate(server, producer, count, tag) {
  limitedArrivals.length = 0;
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const i = next++;
        const answer = await call(`${server.url}/api/v2/avaliacao-saude/eventos`, {
          method: 'POST',
          headers: { authorization: producer, 'content-type': 'application/json' },
          body: publishBody(`${tag}-${i}`, TENANT.usuarioId, LIMITED.tipo),
        });
        if (answer.status !== 202) throw new Error(`publish answered ${answer.status}`);
      }
    }),
  );
  const deadline = Date.now() + 300_000;
  while (limitedArrivals.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return limitedArrivals.length / ((performance.now() - started) / 1000);
}

/** Payload control's cost: the same configuration plain and with a filter and a transformation, in turn. */
async function payloadControl(label, server) {
  await ready(server);
  const producer = await token(server.url, PRODUCER.clientId, PRODUCER.clientSecret);
  const tenant = await token(server.url, TENANT.clientId, TENANT.clientSecret);
  const count = Number(values['rate-events']);
  const control = {
    filtro: { 'data.sentAt': { $gt: 0 }, type: { $startsWith: 'avaliacao-saude.' } },
    // The receiver reads data.idEvento and data.sentAt: the transformation keeps them.
    transformacao:
      "function handler(w) { return { payload: { type: w.type, data: { idEvento: w.payload.data.idEvento, sentAt: w.payload.data.sentAt } }, headers: { 'X-Bench': 'sim' } }; }",
  };
  const rates = { plain: [], controlled: [] };
  for (let round = 0; round < 2; round++) {
    for (const kind of ['plain', 'controlled']) {
      const body = kind === 'plain' ? { filtro: null, transformacao: null } : control;
      const { status, text } = await call(`${server.url}/api/v2/avaliacao-saude/configuracao-web-hook/${LIMITED.id}`, {
        method: 'PUT',
        headers: { authorization: tenant, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (status !== 200) throw new Error(`PUT answered ${status}: ${text}`);
      rates[kind].push(await drainRate(server, producer, count, `${label}-payload-${kind}-${round}`));
    }
  }
  const mean = (list) => list.reduce((sum, rate) => sum + rate, 0) / list.length;
  console.log(
    `payload control, ${label}: ${count} events to one configuration, twice each: plain ${rates.plain.map((r) => r.toFixed(0)).join(', ')} deliveries/s, ` +
      `with a filter and a transformation ${rates.controlled.map((r) => r.toFixed(0)).join(', ')} deliveries/s ` +
      `(${((mean(rates.controlled) / mean(rates.plain)) * 100).toFixed(0)} % of plain)`,
  );
}

/**
 * The same configuration, one kind at a time: `count` events published as fast as CONCURRENCY
 * connections allow, then the time until the destination holds them all. Each broker run has its
 * own exchange and queue, or stream, removed after.
 */
async function brokers(label, server) {
  await ready(server);
  const { default: amqp } = await import('amqplib');
  const { connect } = await import('@nats-io/transport-node');
  const { jetstreamManager } = await import('@nats-io/jetstream');
  const producer = await token(server.url, PRODUCER.clientId, PRODUCER.clientSecret);
  const tenant = await token(server.url, TENANT.clientId, TENANT.clientSecret);
  const count = Number(values['rate-events']);
  const name = `ic-bench-${process.pid}`;
  const rabbit = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
  const channel = await rabbit.createChannel();
  await channel.assertExchange(name, 'direct', { durable: true });
  await channel.assertQueue(name, { durable: true });
  await channel.bindQueue(name, name, 'bench');
  let consumed = 0;
  await channel.consume(name, () => consumed++, { noAck: true });
  const nc = await connect({ servers: '127.0.0.1:4222' });
  const jsm = await jetstreamManager(nc);
  const stream = `IC_BENCH_${process.pid}`;
  await jsm.streams.add({ name: stream, subjects: [`ic-bench.${process.pid}`] });
  const kinds = [
    { kind: 'HTTP', url: `${receiverBase}${LIMITED.path}`, arrived: async () => limitedArrivals.length },
    { kind: 'RabbitMQ', url: `amqp://127.0.0.1:5672/?exchange=${name}&routingKey=bench`, arrived: async () => consumed },
    {
      kind: 'NATS JetStream',
      url: `nats://127.0.0.1:4222?subject=ic-bench.${process.pid}`,
      arrived: async () => (await jsm.streams.info(stream)).state.messages,
    },
  ];
  const rates = [];
  try {
    for (const { kind, url, arrived } of kinds) {
      const { status } = await call(`${server.url}/api/v2/avaliacao-saude/configuracao-web-hook/${LIMITED.id}`, {
        method: 'PUT',
        headers: { authorization: tenant, 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      });
      if (status !== 200) throw new Error(`PUT answered ${status}`);
      const before = await arrived();
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < count) {
            const i = next++;
            const answer = await call(`${server.url}/api/v2/avaliacao-saude/eventos`, {
              method: 'POST',
              headers: { authorization: producer, 'content-type': 'application/json' },
              body: publishBody(`${label}-${kind}-${i}`, TENANT.usuarioId, LIMITED.tipo),
            });
            if (answer.status !== 202) throw new Error(`publish answered ${answer.status}`);
          }
        }),
      );
      const deadline = Date.now() + 300_000;
      while ((await arrived()) - before < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      const got = (await arrived()) - before;
      rates.push(`${kind} ${(got / ((performance.now() - started) / 1000)).toFixed(0)}/s${got < count ? ` (only ${got} arrived)` : ''}`);
    }
  } finally {
    await channel.deleteQueue(name).catch(() => undefined);
    await channel.deleteExchange(name).catch(() => undefined);
    await rabbit.close();
    await jsm.streams.delete(stream).catch(() => undefined);
    await nc.close();
  }
  console.log(`destination kinds, ${label}: ${count} events to one configuration, deliveries/s: ${rates.join(', ')}`);
}

// ---------------------------------------------------------------------------------------------
// CPU per delivery (issue 45 §5): the product against plain-delivery-loop.mjs, same workload, same run.

function cpuSeedFile() {
  const file = path.join(os.tmpdir(), `ic-bench-deliveries-cpu-seed-${process.pid}.json`);
  const webhookConfigs = CPU.tenants.flatMap((usuarioId, t) =>
    Array.from({ length: CPU.configsPerTenant }, (_, c) => ({
      id: `99999999-${String(t).padStart(4, '0')}-4000-8000-${String(c).padStart(12, '0')}`,
      usuarioId,
      sistemaOrigem: 1,
      url: `${receiverBase}${CPU.productPath}`,
      eventoAvaliacaoSaudeAprovada: true,
    })),
  );
  const apiClients = [{ ...PRODUCER, name: 'Bench producer', usuarioId: TENANT.usuarioId, sistemaOrigem: 1, scopes: ['eventos:publicar'] }];
  fs.writeFileSync(file, JSON.stringify({ apiClients, webhookConfigs }));
  return file;
}

/** CPU time (user + system, every thread) a process has used, in ms, from /proc (Linux); `system`: the kernel's part. */
function cpuMsOf(pid, part = 'all') {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime: fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
  const [user, system] = [Number(fields[11]) * 10, Number(fields[12]) * 10];
  return part === 'system' ? system : user + system;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** How many deliveries are still pending in a product's database (its outcomes not yet committed). */
async function pendingCounter(server, databaseUrl) {
  if (databaseUrl) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    return {
      count: async () => Number((await client.query("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pendente'")).rows[0].n),
      close: () => client.end(),
    };
  }
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path.join(server.dataDir, 'integration-console.sqlite'), { readonly: true });
  const statement = db.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pendente'");
  return { count: async () => statement.get().n, close: async () => db.close() };
}

/**
 * The product: --cpu-deliveries pre-queued through the publish API (half as many events, each to its
 * tenant's 2 configurations) while the receiver holds the first requests unanswered, so nothing is
 * delivered during intake; then the receiver answers and the servers' CPU time is read from that
 * moment until every outcome is committed. Intake: events/s of the publish phase.
 */
async function productCpuRound(label, servers, databaseUrl) {
  await Promise.all(servers.map(ready));
  const producers = await Promise.all(servers.map((server) => token(server.url, PRODUCER.clientId, PRODUCER.clientSecret)));
  const events = CPU_DELIVERIES / CPU.configsPerTenant;
  cpuGate = [];
  cpuReceived[CPU.productPath] = 0;
  let next = 0;
  const intakeProfiler = values.profile ? await startProfiler() : null;
  const intakeStarted = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, index) => {
      while (next < events) {
        const first = next;
        next = Math.min(events, next + PUBLISH_BATCH);
        const server = index % servers.length;
        const bodies = Array.from({ length: next - first }, (_, k) =>
          publishBody(`${label}-cpu-${first + k}`, CPU.tenants[(first + k) % CPU.tenants.length]),
        );
        // --publish-batch 1: the single publish, as before; more: its batches (issue 45 §5).
        const batched = PUBLISH_BATCH > 1;
        const { status } = await call(`${servers[server].url}/api/v2/avaliacao-saude/eventos${batched ? '/lote' : ''}`, {
          method: 'POST',
          headers: { authorization: producers[server], 'content-type': 'application/json' },
          body: batched ? `{"eventos":[${bodies.join(',')}]}` : bodies[0],
        });
        if (status !== 202) throw new Error(`publish answered ${status}`);
      }
    }),
  );
  const intake = events / ((performance.now() - intakeStarted) / 1000);
  if (intakeProfiler) await stopProfiler(intakeProfiler, `${label}, intake`);
  // The first claims reach the receiver and wait there; the rest is pending.
  await sleep(500);
  const pending = await pendingCounter(servers[0], databaseUrl);
  try {
    const profiler = values.profile ? await startProfiler() : null;
    const cpuBefore = servers.reduce((sum, server) => sum + cpuMsOf(server.child.pid), 0);
    const systemBefore = servers.reduce((sum, server) => sum + cpuMsOf(server.child.pid, 'system'), 0);
    const started = performance.now();
    const held = cpuGate;
    cpuGate = null;
    for (const response of held) response.writeHead(204).end();
    const deadline = Date.now() + 300_000;
    while ((await pending.count()) > 0 && Date.now() < deadline) await sleep(10);
    const seconds = (performance.now() - started) / 1000;
    const cpuMs = servers.reduce((sum, server) => sum + cpuMsOf(server.child.pid), 0) - cpuBefore;
    const systemMs = servers.reduce((sum, server) => sum + cpuMsOf(server.child.pid, 'system'), 0) - systemBefore;
    if (profiler) await stopProfiler(profiler, `${label}, deliveries`);
    const figures = { rate: CPU_DELIVERIES / seconds, cpuPerDelivery: cpuMs / CPU_DELIVERIES, intake };
    console.log(
      `${label}: intake ${intake.toFixed(0)} events/s; ${cpuReceived[CPU.productPath]} of ${CPU_DELIVERIES} deliveries in ${seconds.toFixed(2)} s → ` +
        `${figures.rate.toFixed(0)}/s, ${figures.cpuPerDelivery.toFixed(3)} ms CPU each (${(systemMs / CPU_DELIVERIES).toFixed(3)} ms of it in the kernel)`,
    );
    return figures;
  } finally {
    await pending.close();
  }
}

/** plain-delivery-loop.mjs: the same deliveries pre-queued in its own tables, `instances` processes draining them. */
async function plainCpuRound(label, instances, databaseUrl) {
  const script = path.join(import.meta.dirname, 'plain-delivery-loop.mjs');
  const dir = databaseUrl ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'ic-bench-plain-'));
  const target = databaseUrl ? ['--pg', databaseUrl] : ['--sqlite', path.join(dir, 'plain.sqlite')];
  try {
    const prepare = spawn(
      process.execPath,
      [script, 'prepare', ...target, '--receiver', `${receiverBase}${CPU.plainPath}`, '--deliveries', String(CPU_DELIVERIES)],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const code = await new Promise((resolve) => prepare.once('exit', resolve));
    if (code !== 0) throw new Error(`plain-delivery-loop prepare exited ${code}`);
    cpuReceived[CPU.plainPath] = 0;
    const loops = Array.from({ length: instances }, () => {
      const child = spawn(process.execPath, [script, 'run', ...target], { stdio: ['pipe', 'pipe', 'inherit'] });
      const lines = [];
      const waiters = [];
      let buffer = '';
      child.stdout.on('data', (chunk) => {
        buffer += chunk;
        let at;
        while ((at = buffer.indexOf('\n')) >= 0) {
          lines.push(buffer.slice(0, at));
          buffer = buffer.slice(at + 1);
          waiters.splice(0).forEach((wake) => wake());
        }
      });
      const line = async (prefix) => {
        for (;;) {
          const found = lines.find((text) => text.startsWith(prefix));
          if (found) return found;
          await new Promise((resolve) => waiters.push(resolve));
        }
      };
      return { child, line };
    });
    await Promise.all(loops.map((loop) => loop.line('ready')));
    const cpuBefore = loops.reduce((sum, loop) => sum + cpuMsOf(loop.child.pid), 0);
    const systemBefore = loops.reduce((sum, loop) => sum + cpuMsOf(loop.child.pid, 'system'), 0);
    const started = performance.now();
    for (const loop of loops) loop.child.stdin.write('go\n');
    await Promise.all(loops.map((loop) => loop.line('done')));
    const seconds = (performance.now() - started) / 1000;
    const cpuMs = loops.reduce((sum, loop) => sum + cpuMsOf(loop.child.pid), 0) - cpuBefore;
    const systemMs = loops.reduce((sum, loop) => sum + cpuMsOf(loop.child.pid, 'system'), 0) - systemBefore;
    await Promise.all(
      loops.map((loop) => {
        loop.child.stdin.end();
        return new Promise((resolve) => loop.child.once('exit', resolve));
      }),
    );
    const figures = { rate: CPU_DELIVERIES / seconds, cpuPerDelivery: cpuMs / CPU_DELIVERIES };
    console.log(
      `${label}: ${cpuReceived[CPU.plainPath]} of ${CPU_DELIVERIES} deliveries in ${seconds.toFixed(2)} s → ` +
        `${figures.rate.toFixed(0)}/s, ${figures.cpuPerDelivery.toFixed(3)} ms CPU each (${(systemMs / CPU_DELIVERIES).toFixed(3)} ms of it in the kernel)`,
    );
    return figures;
  } finally {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The first product server's CPU profiler (--profile), started now. */
async function startProfiler() {
  const profiler = await inspector(INSPECT_PORT);
  await profiler.send('Profiler.enable');
  await profiler.send('Profiler.setSamplingInterval', { interval: 100 });
  await profiler.send('Profiler.start');
  return profiler;
}

/** Stops it, writes the profile to .bench/profiles/ and prints its top functions by self time. */
async function stopProfiler(profiler, label) {
  const { profile } = await profiler.send('Profiler.stop');
  profiler.close();
  const out = path.join(root, '.bench', 'profiles');
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(out, `deliveries-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  console.log(`${label}: the first server's profile (the figures of this round include the profiler's cost): ${path.relative(root, file)}`);
  summarize(profile, 40, root);
}

/** With --profile, the first product server of each round runs with the inspector on. */
const INSPECT_PORT = Number(values.port) + 50;
const inspectArgv = () => (values.profile ? [`--inspect=127.0.0.1:${INSPECT_PORT}`] : []);

function median(numbers) {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Rounds interleaved (product, plain, product, plain, …; with --before, its product first in each),
 * embedded and then on PostgreSQL with two instances each; medians and the product's share of the plain loop.
 */
async function cpuSection(cpuBuilds, rounds) {
  const seed = cpuSeedFile();
  const summary = (name, figures, plain) => {
    const rate = median(figures.map((f) => f.rate));
    const cpu = median(figures.map((f) => f.cpuPerDelivery));
    const intake = figures[0]?.intake === undefined ? '' : `, intake ${median(figures.map((f) => f.intake)).toFixed(0)} events/s`;
    const ratio = plain
      ? `; ${(rate / median(plain.map((f) => f.rate))).toFixed(2)}× the plain loop's deliveries/s, ` +
        `${(cpu / median(plain.map((f) => f.cpuPerDelivery))).toFixed(2)}× its CPU per delivery`
      : '';
    console.log(`  median of ${figures.length}, ${name}: ${rate.toFixed(0)} deliveries/s, ${cpu.toFixed(3)} ms CPU each${intake}${ratio}`);
    return { rate, cpu };
  };
  try {
    const setups = [{ name: 'embedded SQLite', instances: 1 }];
    if (!values['skip-pg']) setups.push({ name: '2 instances, PostgreSQL', instances: 2 });
    const embeddedCpu = new Map();
    for (const { name, instances } of setups) {
      const product = new Map(cpuBuilds.map((build) => [build.name, []]));
      const plain = [];
      for (let round = 1; round <= rounds; round++) {
        for (const build of cpuBuilds) {
          const label = `cpu, ${name}, round ${round}, ${build.name}product`;
          if (instances === 1) {
            const server = startServer(port, { SEED_FILE: seed }, build.dir, inspectArgv());
            try {
              product.get(build.name).push(await productCpuRound(label, [server]));
            } finally {
              await stop(server);
            }
          } else {
            await withPostgres(async (shared) => {
              const servers = Array.from({ length: instances }, (_, index) =>
                startServer(port + 1 + index, { ...shared, SEED_FILE: seed }, build.dir, index === 0 ? inspectArgv() : []),
              );
              try {
                product.get(build.name).push(await productCpuRound(label, servers, shared.DATABASE_URL));
              } finally {
                await Promise.all(servers.map(stop));
              }
            });
          }
        }
        const label = `cpu, ${name}, round ${round}, plain loop`;
        if (instances === 1) plain.push(await plainCpuRound(label, 1));
        else await withPostgres(async (shared) => plain.push(await plainCpuRound(label, instances, shared.DATABASE_URL)));
      }
      console.log(`cpu, ${name}:`);
      summary('plain loop', plain);
      for (const build of cpuBuilds) {
        const { cpu } = summary(`${build.name}product`, product.get(build.name), plain);
        if (instances === 1) embeddedCpu.set(build.name, cpu);
        else if (embeddedCpu.has(build.name)) {
          console.log(
            `  ${build.name}product: CPU per delivery on 2 instances, PostgreSQL ${(cpu / embeddedCpu.get(build.name)).toFixed(2)}× the embedded figure`,
          );
        }
      }
    }
  } finally {
    fs.rmSync(seed, { force: true });
  }
}

/** A fresh PostgreSQL database for `work`, dropped afterwards. */
async function withPostgres(work) {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: values['admin-url'] });
  await admin.connect();
  const name = `ic_bench_deliveries_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(values['admin-url']);
  url.pathname = `/${name}`;
  try {
    await work({ DATABASE_URL: url.toString(), AUTH_SECRET: 'bench-'.padEnd(48, 'x') });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const port = Number(values.port);
const runs = (part) => values.only === undefined || values.only === part;
/** The builds sections 1-2 measure, in turn: this one alone, or --before's and this one, --rounds times. */
const builds = values.before
  ? Array.from({ length: Number(values.rounds ?? 2) }, () => [
      { name: 'before: ', dir: path.resolve(values.before) },
      { name: 'after: ', dir: root },
    ]).flat()
  : [{ name: '', dir: root }];
try {
  if (values.only === 'cpu') {
    const cpuBuilds = values.before
      ? [
          { name: 'before: ', dir: path.resolve(values.before) },
          { name: 'after: ', dir: root },
        ]
      : [{ name: '', dir: root }];
    await cpuSection(cpuBuilds, Number(values.rounds ?? 3));
  }
  if (runs('throughput')) {
    for (const build of builds) {
      const embedded = startServer(port, {}, build.dir);
      try {
        await run(`${build.name}one instance, embedded SQLite`, [embedded]);
      } finally {
        await stop(embedded);
      }
    }
  }
  if (runs('isolation')) {
    const embedded = startServer(port, {});
    try {
      await isolation(embedded);
    } finally {
      await stop(embedded);
    }
  }
  if (runs('many-down')) {
    const embedded = startServer(port, {});
    try {
      await manyDown('embedded SQLite', [embedded]);
    } finally {
      await stop(embedded);
    }
  }
  if (runs('ordered')) {
    const embedded = startServer(port, {});
    try {
      await ordering('embedded SQLite', embedded);
    } finally {
      await stop(embedded);
    }
  }
  if (runs('payload')) {
    const embedded = startServer(port, {});
    try {
      await payloadControl('embedded SQLite', embedded);
    } finally {
      await stop(embedded);
    }
  }
  if (runs('brokers')) {
    const embedded = startServer(port, {});
    try {
      await brokers('embedded SQLite', embedded);
    } finally {
      await stop(embedded);
    }
  }
  if (!values['skip-pg'] && runs('rate-limit')) {
    await withPostgres(async (shared) => {
      const servers = [0, 1].map((index) => startServer(port + 1 + index, shared));
      try {
        await rateLimit('2 instances, PostgreSQL', servers);
      } finally {
        await Promise.all(servers.map(stop));
      }
    });
  }
  if (!values['skip-pg'] && (runs('throughput') || runs('many-down'))) {
    for (const count of runs('throughput') ? [1, 2] : []) {
      for (const build of builds) {
        // A database of its own for each build: each migrates it to its own schema.
        await withPostgres(async (shared) => {
          const servers = Array.from({ length: count }, (_, index) => startServer(port + 1 + index, shared, build.dir));
          try {
            await run(`${build.name}${count} instance(s), PostgreSQL`, servers);
          } finally {
            await Promise.all(servers.map(stop));
          }
        });
      }
    }
    if (runs('many-down')) {
      await withPostgres(async (shared) => {
        const servers = [0, 1].map((index) => startServer(port + 1 + index, shared));
        try {
          await manyDown('2 instances, PostgreSQL', servers);
        } finally {
          await Promise.all(servers.map(stop));
        }
      });
    }
  }
} finally {
  receiver.close();
  agent.destroy();
  fs.rmSync(SEED_FILE, { force: true });
}
