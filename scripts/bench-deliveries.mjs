#!/usr/bin/env node
// Webhook delivery throughput and latency (issue 10 §6): a receiver on 127.0.0.1 that answers 204
// at once; events published through the real API to a tenant with --fanout configurations, all
// pointing at the receiver (a seed of the bench's own); each event carries its publish time, so the
// receiver measures intake-to-receipt. Prints, for one instance on the embedded default, then one and
// two instances on PostgreSQL (DATABASE_ADMIN_URL, default the local server; --skip-pg to skip):
//   1. capacity: events published as fast as --concurrency connections allow → deliveries/s received;
//   2. latency at half that rate, open loop: p50, p99, max intake-to-receipt.
// A script that prints figures; it asserts nothing. Needs `npm run build` first.
//   node scripts/bench-deliveries.mjs [--events 1000] [--fanout 10] [--concurrency 16] [--skip-pg]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '1000' },
    fanout: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '16' },
    port: { type: 'string', default: '3980' },
    'skip-pg': { type: 'boolean', default: false },
    'admin-url': { type: 'string', default: process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const root = path.resolve(import.meta.dirname, '..');
const EVENTS = Number(values.events);
const CONCURRENCY = Number(values.concurrency);
const FANOUT = Number(values.fanout);
const TENANT = { clientId: 'bench-tenant', clientSecret: 'bench-tenant-secret', usuarioId: 'bbbbbbbb-0000-4000-8000-00000000bbbb' };
const PRODUCER = { clientId: 'bench-producer', clientSecret: 'bench-producer-secret' };

// ---------------------------------------------------------------------------------------------
// The receiver: records (receipt time − publish time) per event id.

const latencies = new Map();
let received = 0;
const receiver = http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    const { data } = JSON.parse(body);
    received++;
    const key = `${data.idEvento}:${request.headers['webhook-id']}`;
    if (data.sentAt && !latencies.has(key)) latencies.set(key, Date.now() - data.sentAt);
    response.writeHead(204).end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/bench`;

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

function startServer(port, env) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-bench-deliveries-'));
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'serve.mjs')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
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

function publishBody(id) {
  return JSON.stringify({ tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT.usuarioId, idEvento: id, dados: { sentAt: Date.now() } });
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
  const sorted = [...latencies.values()].sort((a, b) => a - b);
  console.log(
    `${label} at ${(rate * FANOUT).toFixed(0)} deliveries/s (half capacity), ${count} events: intake-to-receipt p50 ${percentile(sorted, 50)} ms, ` +
      `p99 ${percentile(sorted, 99)} ms, max ${sorted.at(-1)} ms`,
  );
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

const port = Number(values.port);
try {
  const embedded = startServer(port, {});
  try {
    await run('one instance, embedded SQLite', [embedded]);
  } finally {
    await stop(embedded);
  }
  if (!values['skip-pg']) {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: values['admin-url'] });
    await admin.connect();
    const name = `ic_bench_deliveries_${Date.now()}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(values['admin-url']);
    url.pathname = `/${name}`;
    const shared = { DATABASE_URL: url.toString(), AUTH_SECRET: 'bench-'.padEnd(48, 'x') };
    for (const count of [1, 2]) {
      const servers = Array.from({ length: count }, (_, index) => startServer(port + 1 + index, shared));
      try {
        await run(`${count} instance(s), PostgreSQL`, servers);
      } finally {
        await Promise.all(servers.map(stop));
      }
    }
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
} finally {
  receiver.close();
  agent.destroy();
  fs.rmSync(SEED_FILE, { force: true });
}
