#!/usr/bin/env node
// `npm run bench`: every performance figure of the product, each beside its baseline measured in
// the same run (absolute times on a shared 2-core machine are noise; ratios are what to read).
// It prints figures and asserts nothing. Needs `npm run build` first (it runs it when missing).
//   1. the reservation API (reserve, conflicting reserve, release of real free slots), closed loop,
//      rounds interleaved: the product server (logging as deployed, at LOG_LEVEL's default) against
//      the yardstick ('raw', raw-server.ts: a node:http server doing the same work, committing as the
//      product does); and the product with OpenTelemetry traces on ('traced'), exported to a sink in
//      this process
//   2. open-loop latency at half the product's capacity, corrected for coordinated omission
//   3. the webhook PUT, the same way
//   4. two instances on PostgreSQL against one
//   5. first-load JavaScript (gzip) of each console route against a minimal App Router page
//   6. Lighthouse (mobile) performance and accessibility of every console page
//   7. the reservation API on npm start without and with METRICS_TOKEN (the cost of metrics)
// Servers run pinned to CPU 0 and the load generator (autocannon, in this process) to CPU 1;
// Chromium, for Lighthouse, on every CPU.
//   node scripts/bench/run.mjs [--rounds 3] [--seconds 5] [--connections 16] [--only 1,2,3,4,5,6,7]
//     [--base-port 4310] [--lighthouse-runs 5] [--lighthouse-cpu both|calibrated|N]
//     [--pages reserva,clientes,...] (sections 5 and 6: those console and portal pages only, beside the minimal
//     page; keys: sign-in webhooks editor nova reserva clientes equipe conta saude)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { buildSeed, BENCH_CLIENT, BENCH_STAFF, WEBHOOK_ID } from './seed.mjs';
import { openLoop } from './open-loop.mjs';
import { RESERVE_PATH, reservationBody, reservationRequests, slots, webhookRequests } from './streams.mjs';
import { firstLoadJs, startMinimalApp } from './first-load-js.mjs';
import { chosenPages, lighthouseScores } from './lighthouse.mjs';
import { cpuQuotaAvailable, limitCpu } from './cpu-quota.mjs';
import { fsyncLatency } from './fsync-probe.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    only: { type: 'string', default: '1,2,3,4,5,6,7' },
    'base-port': { type: 'string', default: '4310' },
    // Section 1 only: another checkout's build (a worktree of main, say) as targets 'compare' and
    // 'compare:api' in the same interleaved rounds, for a before/after on one noisy machine.
    compare: { type: 'string', default: '' },
    // Section 1 only: the targets to run, comma-separated (default: every one).
    targets: { type: 'string', default: '' },
    // Section 6 only: runs per page and multiplier, and which multipliers ('both', 'calibrated', or a number).
    'lighthouse-runs': { type: 'string', default: '5' },
    'lighthouse-cpu': { type: 'string', default: 'both' },
    // Sections 5 and 6 only: the console and portal pages to measure (keys of consolePages in lighthouse.mjs).
    pages: { type: 'string', default: '' },
  },
});
const ROUNDS = Number(values.rounds);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const ONLY = new Set(values.only.split(',').map(Number));
const PAGES = chosenPages(values.pages);
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BASE_PORT = Number(values['base-port']);
// The minimal App Router page of sections 5 and 6 (4399 with the default base port).
const MINIMAL_PORT = BASE_PORT + 89;
const CPUS = os.availableParallelism();
// Each instance's CPU limit in the capped scale-out measurement (section 4b): two of them leave
// the rest of a 2-CPU machine to PostgreSQL and the load generator.
const SCALE_OUT_QUOTA = Number(process.env.BENCH_SCALE_OUT_QUOTA ?? '0.4');
if (!(SCALE_OUT_QUOTA > 0 && SCALE_OUT_QUOTA <= CPUS))
  throw new Error(`BENCH_SCALE_OUT_QUOTA: a number of CPUs, above 0 and at most ${CPUS}`);
const multiCore = CPUS > 1;

/** Pins this process (every thread, and the processes it starts from now on) to these CPUs. */
function pinSelf(cpus) {
  if (!multiCore) return;
  try {
    execFileSync('taskset', ['-a', '-cp', cpus, String(process.pid)], { stdio: 'ignore' });
  } catch {
    // no taskset: unpinned
  }
}
// The load generator (autocannon, in this process) on CPU 1, away from the servers on CPU 0.
pinSelf('1');
if (!fs.existsSync(path.join(ROOT, '.next', 'standalone', 'server.js'))) {
  console.log('(building: npm run build)');
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

const children = new Set();
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));

/**
 * A server, resolved when `ready` answers. Placement: `{ cpu }` pins it to that CPU; `{ quota }`
 * leaves it free to run on any CPU but caps it at that many CPUs' time, as a container limit would.
 */
async function startProcess(label, command, args, env, port, placement = { cpu: '0' }, cwd = ROOT) {
  const pinned = multiCore && placement.cpu !== undefined ? ['taskset', ['-c', placement.cpu, command, ...args]] : [command, args];
  const child = spawn(pinned[0], pinned[1], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  if (placement.quota !== undefined) {
    const release = limitCpu(child.pid, placement.quota, `${label.replace(/\W+/g, '-')}-${port}`);
    child.once('exit', release);
  }
  // The server's last lines, for the error below: the product logs every request (as deployed), so
  // keeping all of its output would grow this process for the whole run.
  let output = '';
  const keep = (chunk) => (output = (output + chunk).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  children.add(child);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`${label} exited:\n${output}`);
    try {
      await fetch(`${url}/api/health`);
      return { url, child, stop: () => stopChild(child) };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`${label} did not start:\n${output}`);
}

function stopChild(child) {
  children.delete(child);
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

const productEnv = (dataDir, port, extra = {}) => ({
  NODE_ENV: 'production',
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  SEED_FILE: path.join(dataDir, 'seed.json'),
  NEXT_TELEMETRY_DISABLED: '1',
  ...extra,
});
const startProduct = (dataDir, port, extra, placement, root = ROOT) =>
  startProcess('product', process.execPath, ['scripts/serve.mjs'], productEnv(dataDir, port, extra), port, placement, root);
const startLeanApi = (dataDir, port, extra, placement, root = ROOT) =>
  startProcess('lean API server', process.execPath, ['scripts/serve-api.mjs'], productEnv(dataDir, port, extra), port, placement, root);
/**
 * The yardstick, bundled as the lean API server is (esbuild, packages from node_modules) and run by
 * node itself: no TypeScript loader in the process it is compared with.
 */
const RAW_BUNDLE = path.join(ROOT, '.bench', 'raw-server.mjs');
async function bundleRaw() {
  const { build } = await import('esbuild');
  const { serverOnly } = await import('../esbuild-server-only.mjs');
  await build({
    entryPoints: [path.join(ROOT, 'scripts', 'bench', 'raw-server.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    plugins: [serverOnly],
    outfile: RAW_BUNDLE,
    logLevel: 'warning',
  });
}
const startRaw = async (dataDir, port, extra = {}) => {
  await bundleRaw(); // each time: it imports lib/, which may have changed since
  return startProcess(
    'raw baseline',
    process.execPath,
    [RAW_BUNDLE],
    { DATA_DIR: dataDir, PORT: String(port), NODE_ENV: 'production', ...extra },
    port,
  );
};

async function token(url) {
  const response = await fetch(`${url}/api/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: BENCH_CLIENT.clientId,
      client_secret: BENCH_CLIENT.clientSecret,
    }),
  });
  if (!response.ok) throw new Error(`token: HTTP ${response.status}`);
  return (await response.json()).access_token;
}

/**
 * An OTLP/HTTP endpoint that takes every export and keeps nothing but counts, for the traced product
 * (section 1): the cost measured is the server's, making and sending its spans.
 */
async function startTraceSink() {
  const sink = { exports: 0, bytes: 0 };
  const server = http.createServer((request, response) => {
    request.on('data', (chunk) => (sink.bytes += chunk.length));
    request.on('end', () => {
      sink.exports++;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  sink.url = `http://127.0.0.1:${server.address().port}`;
  sink.stop = () => new Promise((resolve) => server.close(resolve));
  return sink;
}

/** A fresh data folder with the bench seed; the product creates and seeds its database on first start. */
function newDataDir(label) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ic-bench-${label}-`));
  fs.writeFileSync(path.join(dir, 'seed.json'), JSON.stringify(buildSeed()));
  return dir;
}

function cannon(url, auth, requests, connections = CONNECTIONS, seconds = SECONDS) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        duration: seconds,
        headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
        requests,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** Rounds alternate which target goes first, so drift (thermal, neighbours) falls on both. */
async function interleaved(targets, requestsFor) {
  const results = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const names = Object.keys(targets);
    if (round % 2 === 1) names.reverse();
    for (const name of names) {
      // The server's own CPU seconds for the run: on a machine shared with other work, CPU per
      // request moves far less than throughput does, which also counts time the server waited for a CPU.
      const pid = targets[name].child?.pid;
      const before = pid ? processCpuSeconds([pid]) : undefined;
      const result = await cannon(targets[name].url, targets[name].token, requestsFor(round));
      if (pid) result.cpuSeconds = processCpuSeconds([pid]) - before;
      results[name].push(result);
    }
  }
  return Object.fromEntries(Object.entries(results).map(([name, list]) => [name, summarize(list)]));
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
function summarize(results) {
  const total = results.reduce((sum, result) => sum + result.requests.total, 0);
  const seconds = results.reduce((sum, result) => sum + result.duration, 0);
  const statuses = {};
  for (const result of results)
    for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = (statuses[code] ?? 0) + stat.count;
  const cpu = results.every((result) => result.cpuSeconds !== undefined)
    ? results.reduce((sum, result) => sum + result.cpuSeconds, 0)
    : undefined;
  return {
    rps: total / seconds,
    cpuMsPerRequest: cpu === undefined ? undefined : (1000 * cpu) / total,
    // Each round's own figures, for ratios taken within one round (printComparison).
    rounds: results.map((result) => ({ rps: result.requests.total / result.duration })),
    p50: median(results.map((result) => result.latency.p50)),
    p99: median(results.map((result) => result.latency.p99)),
    errors: results.reduce((sum, result) => sum + result.errors + result.timeouts, 0),
    statuses,
  };
}

const fmt = (n, digits = 1) => (n === undefined || Number.isNaN(n) ? '—' : n.toFixed(digits));
function printComparison(title, summary, baselines = ['raw']) {
  console.log(`\n${title}`);
  console.log('  target         req/s     p50 ms   p99 ms   CPU ms/req   statuses');
  for (const [name, s] of Object.entries(summary)) {
    const statuses = Object.entries(s.statuses)
      .map(([code, count]) => `${code}×${count}`)
      .join(' ');
    console.log(
      `  ${name.padEnd(12)} ${fmt(s.rps).padStart(8)} ${fmt(s.p50).padStart(9)} ${fmt(s.p99).padStart(8)} ${fmt(s.cpuMsPerRequest, 3).padStart(12)}   ${statuses}${s.errors ? ` errors×${s.errors}` : ''}`,
    );
  }
  const names = Object.keys(summary).filter((name) => !baselines.includes(name));
  for (const baseline of baselines) {
    for (const name of names) {
      const cpu = summary[name].cpuMsPerRequest && summary[baseline].cpuMsPerRequest / summary[name].cpuMsPerRequest;
      console.log(
        `  ${name} / ${baseline}: ${fmt(summary[name].rps / summary[baseline].rps, 2)}× throughput${cpu ? `, ${fmt(cpu, 2)}× by CPU per request` : ''}${perRound(summary[name], summary[baseline])}`,
      );
    }
  }
}

/**
 * The same ratio taken in each round, between runs minutes apart at most: its median and range.
 * On a shared machine the speed drifts between rounds; a round's two runs share most of it, so
 * the spread of these says how far the totals' ratio can be trusted.
 */
function perRound(target, baseline) {
  const ratios = target.rounds.map((round, index) => round.rps / baseline.rounds[index].rps);
  if (ratios.length < 3) return '';
  const sorted = [...ratios].sort((a, b) => a - b);
  return ` (per round: median ${fmt(median(ratios), 2)}×, ${fmt(sorted[0], 2)}–${fmt(sorted.at(-1), 2)})`;
}

console.log(`Integration Console benchmark — ${new Date().toISOString()}, Node ${process.version}, ${CPUS} CPUs`);
console.log(`closed loop: ${ROUNDS} interleaved rounds × ${SECONDS} s, ${CONNECTIONS} connections (autocannon)`);

let product;
let api;
let raw;
let rawEach;
let compare;
let compareApi;
let traced;
let traceSink;
let capacity;
let copyOf;
let secretOnlyCopyOf;
if (ONLY.has(1) || ONLY.has(2) || ONLY.has(3) || ONLY.has(5) || ONLY.has(6) || ONLY.has(7)) {
  const productDir = newDataDir('product');
  product = await startProduct(productDir, BASE_PORT);
  product.token = await token(product.url);
  // The lean API server and the raw baseline get copies of the product's database (same schema,
  // seed and secret), so one token works on all three.
  await product.stop();
  copyOf = (label) => {
    const dir = newDataDir(label);
    for (const file of ['integration-console.sqlite', 'integration-console.sqlite-wal', 'auth-secret']) {
      if (fs.existsSync(path.join(productDir, file))) fs.copyFileSync(path.join(productDir, file), path.join(dir, file));
    }
    return dir;
  };
  // The other checkout's build may know fewer migrations than this one's database holds (it would
  // refuse to start on it): it seeds its own database from the same seed, under the same secret, so
  // the product's token works there too.
  secretOnlyCopyOf = (label) => {
    const dir = newDataDir(label);
    fs.copyFileSync(path.join(productDir, 'auth-secret'), path.join(dir, 'auth-secret'));
    return dir;
  };
  const apiDir = copyOf('api');
  const rawDir = copyOf('raw');
  const tracedDir = copyOf('traced');
  product = await startProduct(productDir, BASE_PORT);
  product.token = await token(product.url);
  if (ONLY.has(1) || ONLY.has(2) || ONLY.has(3)) {
    api = await startLeanApi(apiDir, BASE_PORT + 4);
    api.token = product.token;
    raw = await startRaw(rawDir, BASE_PORT + 1);
    raw.token = product.token;
  }
  if (ONLY.has(1)) {
    // The plain server of issue 28's wording: the same work, each request committed on its own.
    rawEach = await startRaw(copyOf('raw-each'), BASE_PORT + 2, { RAW_COMMIT: 'each' });
    rawEach.token = product.token;
    // Every request sampled, in the default protocol (protobuf) and batch settings.
    traceSink = await startTraceSink();
    traced = await startProduct(tracedDir, BASE_PORT + 6, { OTEL_EXPORTER_OTLP_ENDPOINT: traceSink.url });
    traced.token = product.token;
  }
  if (ONLY.has(1) && values.compare) {
    const root = path.resolve(values.compare);
    compare = await startProduct(secretOnlyCopyOf('compare'), BASE_PORT + 10, {}, undefined, root);
    compare.token = product.token;
    compareApi = await startLeanApi(secretOnlyCopyOf('compare-api'), BASE_PORT + 11, {}, undefined, root);
    compareApi.token = product.token;
  }
}

if (ONLY.has(1)) {
  const all = { product, traced, 'start:api': api, ...(compare ? { compare, 'compare:api': compareApi } : {}), raw, 'raw:each': rawEach };
  const chosen = values.targets ? new Set(['raw', 'raw:each', ...values.targets.split(',')]) : undefined;
  const summary = await interleaved(
    Object.fromEntries(Object.entries(all).filter(([name]) => !chosen || chosen.has(name))),
    reservationRequests,
  );
  printComparison('1. Reservation API (reserve + conflicting reserve + release), closed loop', summary, ['raw', 'raw:each']);
  if (summary.traced && summary.product) {
    console.log(`  traced / product: ${fmt(summary.traced.rps / summary.product.rps, 2)}× throughput (traces on against off)`);
  }
  if (compare) console.log(`  compare, compare:api: ${values.compare}`);
  await compare?.stop();
  await compareApi?.stop();
  await traced.stop();
  await rawEach.stop();
  console.log(`  traced sent ${traceSink.exports} OTLP exports, ${fmt(traceSink.bytes / 1024 / 1024)} MiB, to the sink`);
  await traceSink.stop();
  delete summary.traced;
  capacity = Object.fromEntries(Object.entries(summary).map(([name, figures]) => [name, figures.rps]));
}

if (ONLY.has(2)) {
  console.log(`\n2. Open loop at half of each target's measured capacity for ${SECONDS * 2} s, latency from each request's scheduled time`);
  const disk = (when) => {
    const { p50, p99, max } = fsyncLatency();
    console.log(`  disk ${when}: write + fsync p50 ${fmt(p50, 2)} ms, p99 ${fmt(p99, 2)} ms, max ${fmt(max, 2)} ms (200 of them)`);
  };
  disk('before');
  console.log('  target        rate/s    sent    p50 ms   p99 ms   max ms   late starts   CPU stolen');
  for (const [name, target] of Object.entries({ product, 'start:api': api, raw })) {
    const measured = capacity?.[name] ?? (await cannon(target.url, target.token, reservationRequests())).requests.average;
    const rate = Math.max(10, Math.round(measured / 2));
    const before = machineCpu();
    const result = await openLoop({
      url: target.url,
      token: target.token,
      rate,
      seconds: SECONDS * 2,
      slots,
      body: reservationBody,
      path: RESERVE_PATH,
      offset: 0,
    });
    console.log(
      `  ${name.padEnd(12)} ${String(rate).padStart(6)} ${String(result.sent).padStart(7)} ${fmt(result.p50).padStart(9)} ${fmt(result.p99).padStart(8)} ${fmt(result.max).padStart(8)}   ${String(result.late).padStart(11)}   ${fmt(stolenPercent(before, machineCpu()))}%`,
    );
  }
  disk('after');
}

if (ONLY.has(3)) {
  printComparison('3. Webhook PUT, closed loop', await interleaved({ product, 'start:api': api, raw }, webhookRequests));
}

if (ONLY.has(7)) {
  // Issue 20: metrics are recorded only with METRICS_TOKEN set; the same build, twice, on copies of one database.
  const off = await startProduct(copyOf('metrics-off'), BASE_PORT + 8);
  const on = await startProduct(copyOf('metrics-on'), BASE_PORT + 9, { METRICS_TOKEN: 'bench-metrics-token-2026-0123456789' });
  off.token = product.token;
  on.token = product.token;
  const summary = await interleaved({ 'metrics off': off, 'metrics on': on }, reservationRequests);
  printComparison('7. Metrics on the reservation path: npm start without and with METRICS_TOKEN, closed loop', summary, ['metrics off']);
  await off.stop();
  await on.stop();
}
await raw?.stop();
await api?.stop();

if (ONLY.has(5)) {
  console.log('\n5. First-load JavaScript (gzip) per console and portal route');
  await firstLoadJs({
    root: ROOT,
    url: product.url,
    staff: BENCH_STAFF,
    tenant: BENCH_CLIENT,
    webhookId: WEBHOOK_ID,
    minimalPort: MINIMAL_PORT,
    only: PAGES,
  });
}
if (ONLY.has(6)) {
  console.log('\n6. Lighthouse (mobile, Debian Chromium)');
  // Chromium, started by this process, gets every CPU as a browser would: pinned to the load
  // generator's one CPU beside Lighthouse itself, the minimal page scored 76 where it scores 96.
  pinSelf(`0-${CPUS - 1}`);
  const minimal = await startMinimalApp(ROOT, MINIMAL_PORT);
  try {
    await lighthouseScores({
      url: product.url,
      staff: BENCH_STAFF,
      tenant: BENCH_CLIENT,
      webhookId: WEBHOOK_ID,
      minimalUrl: minimal.url,
      runs: Number(values['lighthouse-runs']),
      multipliers: values['lighthouse-cpu'],
      only: PAGES,
    });
  } finally {
    minimal.stop();
    pinSelf('1');
  }
}
await product?.stop();

if (ONLY.has(4)) {
  const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  console.log('\n4. Reservation API on PostgreSQL: two instances against one');
  // a) Each instance pinned to a CPU of its own: what this machine gives. The load generator and
  //    PostgreSQL share those two CPUs, so once the machine is busy a second instance can only take
  //    CPU from them. Equal CPU per request with one and two instances means the instances do not
  //    contend with each other (no shared lock, no hot row).
  // b) Each instance capped at SCALE_OUT_QUOTA CPUs, as a container limit sets it in production: the
  //    two instances together then need no more than the machine has beside PostgreSQL and the load
  //    generator, so the ratio shows what a second instance adds when the hardware is not the wall.
  const placements = [['each pinned to its own CPU', (index) => ({ cpu: multiCore ? String(index) : '0' })]];
  if (cpuQuotaAvailable()) placements.push([`each capped at ${SCALE_OUT_QUOTA} CPU (cgroup quota)`, () => ({ quota: SCALE_OUT_QUOTA })]);
  else console.log('  (no writable cgroup CPU controller here: the capped measurement is skipped)');
  try {
    for (const [placementName, placementOf] of placements) {
      for (const [kind, start] of [
        ['product', startProduct],
        ['start:api', startLeanApi],
      ]) {
        const database = `ic_bench_${process.pid}_${kind === 'product' ? 'next' : 'lean'}`;
        await admin.query(`CREATE DATABASE ${database}`);
        try {
          await scaleOut(`${kind}, ${placementName}`, start, adminUrl, database, placementOf);
        } finally {
          await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
        }
      }
    }
  } finally {
    await admin.end().catch(() => undefined);
  }
}

/** One instance, then two (half the connections each), on one PostgreSQL database. */
async function scaleOut(title, start, adminUrl, database, placementOf) {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const shared = { DATABASE_URL: url.toString(), AUTH_SECRET: 'bench-shared-secret-0123456789-abcdefghij' };
  const first = await start(newDataDir('pg1'), BASE_PORT + 2, shared, placementOf(0));
  first.token = await token(first.url);
  const second = await start(newDataDir('pg2'), BASE_PORT + 3, shared, placementOf(1));
  const one = [];
  const two = [];
  const usage = { one: { cpu: 0, busy: 0, requests: 0 }, two: { cpu: 0, busy: 0, requests: 0 } };
  const measure = async (bucket, run) => {
    const before = { cpu: processCpuSeconds([first.child.pid, second.child.pid]), machine: machineCpu() };
    const result = await run();
    const after = { cpu: processCpuSeconds([first.child.pid, second.child.pid]), machine: machineCpu() };
    usage[bucket].cpu += after.cpu - before.cpu;
    usage[bucket].busy += (after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total);
    return result;
  };
  for (let round = 0; round < ROUNDS; round++) {
    one.push(await measure('one', () => cannon(first.url, first.token, reservationRequests())));
    const half = Math.max(1, CONNECTIONS / 2);
    // Each instance gets half the connections; the cycle counter keeps their slots apart.
    const pair = await measure('two', () =>
      Promise.all([
        cannon(first.url, first.token, reservationRequests(), half),
        cannon(second.url, first.token, reservationRequests(), half),
      ]),
    );
    two.push({
      requests: { total: pair[0].requests.total + pair[1].requests.total },
      duration: Math.max(pair[0].duration, pair[1].duration),
      latency: { p50: Math.max(pair[0].latency.p50, pair[1].latency.p50), p99: Math.max(pair[0].latency.p99, pair[1].latency.p99) },
      errors: pair[0].errors + pair[1].errors,
      timeouts: pair[0].timeouts + pair[1].timeouts,
      statusCodeStats: Object.fromEntries(
        [...new Set([...Object.keys(pair[0].statusCodeStats), ...Object.keys(pair[1].statusCodeStats)])].map((code) => [
          code,
          { count: (pair[0].statusCodeStats[code]?.count ?? 0) + (pair[1].statusCodeStats[code]?.count ?? 0) },
        ]),
      ),
    });
  }
  await Promise.all([first.stop(), second.stop()]);
  const summary = { one: summarize(one), two: summarize(two) };
  printComparison(`4. ${title}`, summary, ['one']);
  for (const bucket of ['one', 'two']) {
    const requests = (bucket === 'one' ? one : two).reduce((sum, result) => sum + result.requests.total, 0);
    console.log(
      `  ${bucket}: instance CPU ${fmt((usage[bucket].cpu * 1000) / requests, 2)} ms per request, machine ${fmt((usage[bucket].busy / ROUNDS) * 100)}% busy`,
    );
  }
}

/** User + system CPU seconds of these processes and their descendants, from /proc (Linux). */
function processCpuSeconds(pids) {
  const ticks = 100; // USER_HZ on Linux
  let total = 0;
  const seen = new Set();
  const visit = (pid) => {
    if (seen.has(pid)) return;
    seen.add(pid);
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / ticks;
      const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ') : []) visit(Number(child));
    } catch {
      // gone, or not Linux
    }
  };
  for (const pid of pids) visit(pid);
  return total;
}

/** The share of the machine's CPU time the hypervisor took between two readings, in percent. */
function stolenPercent(before, after) {
  return ((after.steal - before.steal) / Math.max(1, after.total - before.total)) * 100;
}

/** The whole machine's busy and total CPU time, from /proc/stat. */
function machineCpu() {
  try {
    const [, ...times] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const idle = times[3] + (times[4] ?? 0);
    const total = times.reduce((sum, value) => sum + value, 0);
    // steal: time the hypervisor gave this machine's CPUs to someone else (stalls every process here)
    return { busy: total - idle, total, steal: times[7] ?? 0 };
  } catch {
    return { busy: 0, total: 1, steal: 0 };
  }
}
process.exit(0);
