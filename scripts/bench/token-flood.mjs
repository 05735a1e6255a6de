#!/usr/bin/env node
// Token-endpoint flood (issue 9 §2): starts the production build on a fresh embedded database, polls
// /api/health alone for a baseline, then again while 1,000 token requests with random client_ids
// arrive; prints health p50/p99 in both phases and the server's CPU seconds during the flood.
// Floods from one source address (the per-address limit answers most with 429) and spread over
// 1,000 loopback source addresses (127.x.y.z, so every request reaches the secret check), each sent
// twice: open loop at --rate requests/s, as an attacker sends them whatever the answers, and closed
// loop as fast as --concurrency connections allow, which saturates the server (one Node process on
// a shared 2-core machine with the load generator) and so measures queueing as much as the flood.
// A script that prints figures; it asserts nothing. Needs `npm run build` first.
//   node scripts/bench/token-flood.mjs [--requests 1000] [--rate 250] [--concurrency 50] [--polls 200]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '50' },
    rate: { type: 'string', default: '250' },
    polls: { type: 'string', default: '200' },
    port: { type: 'string', default: '3990' },
  },
});
const root = path.resolve(import.meta.dirname, '..', '..');
const port = Number(values.port);
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-bench-flood-'));

const server = spawn(process.execPath, [path.join(root, 'scripts', 'serve.mjs')], {
  env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

function send(url, { method = 'GET', body, headers = {}, localAddress } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(url, { method, headers, localAddress, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode, ms: performance.now() - started }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** utime + stime of the server process (and its children) in seconds, from /proc. */
function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  return ticks / 100; // USER_HZ is 100 on Linux
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function pollHealth(count, stop = () => false) {
  const times = [];
  for (let i = 0; i < count && !stop(); i++) {
    times.push((await send(`${base}/api/health`)).ms);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return times.sort((a, b) => a - b);
}

/** One token request with a random client_id, and a forged X-Forwarded-For the server must ignore. */
async function tokenAttempt(i, sourceFor, statuses) {
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: `flood-${randomBytes(8).toString('hex')}`,
    client_secret: randomBytes(16).toString('hex'),
  }).toString();
  const { status } = await send(`${base}/api/v1/auth/token`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `203.0.113.${i % 250}` },
    localAddress: sourceFor(i),
  });
  statuses[status] = (statuses[status] ?? 0) + 1;
}

async function closedLoopFlood(total, concurrency, sourceFor) {
  const statuses = {};
  let next = 0;
  const worker = async () => {
    while (next < total) await tokenAttempt(next++, sourceFor, statuses);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return statuses;
}

async function openLoopFlood(total, rate, sourceFor) {
  const statuses = {};
  const started = performance.now();
  const inFlight = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(tokenAttempt(i, sourceFor, statuses));
  }
  await Promise.all(inFlight);
  return statuses;
}

const format = (ms) => `${ms.toFixed(1)} ms`;

try {
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await send(`${base}/api/health/ready`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (attempt > 300) throw new Error('server did not become ready');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await pollHealth(20); // warm-up
  const total = Number(values.requests);
  const concurrency = Number(values.concurrency);
  const baseline = await pollHealth(Number(values.polls));
  console.log(`health alone:          p50 ${format(percentile(baseline, 50))}  p99 ${format(percentile(baseline, 99))}`);

  const spreads = {
    'one source address': () => '127.0.0.1',
    [`${total} source addresses`]: (i) => `127.${100 + Math.floor(i / 65_536)}.${Math.floor(i / 256) % 256}.${(i % 254) + 1}`,
  };
  const modes = {
    [`open loop at ${values.rate}/s`]: (sourceFor) => openLoopFlood(total, Number(values.rate), sourceFor),
    [`closed loop, ${concurrency} connections`]: (sourceFor) => closedLoopFlood(total, concurrency, sourceFor),
  };
  for (const [mode, flood] of Object.entries(modes))
    for (const [spread, sourceFor] of Object.entries(spreads)) {
      const label = `${mode}, ${spread}`;
      const cpuBefore = cpuSeconds(server.pid);
      let done = false;
      const started = performance.now();
      const [statuses, during] = await Promise.all([flood(sourceFor).finally(() => (done = true)), pollHealth(1_000_000, () => done)]);
      const seconds = (performance.now() - started) / 1000;
      const cpu = cpuSeconds(server.pid) - cpuBefore;
      console.log(
        `flood, ${label}: ${total} token requests in ${seconds.toFixed(1)} s (${JSON.stringify(statuses)}); ` +
          `server CPU ${cpu.toFixed(2)} s; health during it (${during.length} polls): p50 ${format(percentile(during, 50))}  ` +
          `p99 ${format(percentile(during, 99))} (${(percentile(during, 99) / percentile(baseline, 99)).toFixed(2)}× alone)`,
      );
    }
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
