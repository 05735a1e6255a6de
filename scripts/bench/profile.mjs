#!/usr/bin/env node
// A CPU profile of one server answering the bench's reservation stream (streams.mjs), and its top
// functions by self time. The server runs with the inspector on, pinned to CPU 0 like the bench's;
// after a warm-up, the profiler records only the load's seconds (not start-up), and the profile is
// written to .bench/profiles/<target>-<time>.cpuprofile (Chrome DevTools, speedscope).
// With --heap, the inspector's sampling heap profiler instead: bytes allocated per request, and the
// functions that allocated them (the garbage each request leaves; objects since collected included),
// written to .bench/profiles/<target>-<time>.heapprofile.
//   node scripts/bench/profile.mjs [--target start|api|raw] [--heap] [--seconds 10] [--connections 16] [--top 30]
// `start` is `npm start` (the lean API path in front of Next), `api` is `npm run start:api`, `raw`
// the bench's yardstick (raw-server.ts). Needs `npm run build` first.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { buildSeed, BENCH_CLIENT } from './seed.mjs';
import { reservationRequests } from './streams.mjs';
import { inspector, summarize } from './cpu-profile.mjs';

const { values } = parseArgs({
  options: {
    target: { type: 'string', default: 'api' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    top: { type: 'string', default: '30' },
    port: { type: 'string', default: '4360' },
    heap: { type: 'boolean', default: false },
  },
});
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const PORT = Number(values.port);
const INSPECT_PORT = PORT + 1;
const OUT = path.join(ROOT, '.bench', 'profiles');
const multiCore = os.availableParallelism() > 1;
if (multiCore) {
  try {
    execFileSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
  } catch {
    // no taskset: unpinned
  }
}

function start(script, args, env, inspect) {
  const node = [...(inspect ? [`--inspect=127.0.0.1:${INSPECT_PORT}`] : []), script, ...args];
  const [command, argv] = multiCore ? ['taskset', ['-c', '0', process.execPath, ...node]] : [process.execPath, node];
  const child = spawn(command, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk) => (errors = (errors + chunk).slice(-20_000)));
  return { child, errors: () => errors };
}

async function ready(server) {
  for (let i = 0; i < 240; i++) {
    if (server.child.exitCode !== null) throw new Error(`server exited:\n${server.errors()}`);
    try {
      await fetch(`http://127.0.0.1:${PORT}/api/health`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`server did not start:\n${server.errors()}`);
}

const stop = (server) =>
  new Promise((resolve) => {
    if (server.child.exitCode !== null) return resolve();
    server.child.once('exit', resolve);
    server.child.kill('SIGTERM');
  });

function load(token, seconds) {
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: `http://127.0.0.1:${PORT}`,
        connections: Number(values.connections),
        duration: seconds,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        requests: reservationRequests(),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
}

/** Bytes allocated per request, in all and by allocating function (name, file, line), most first. */
function summarizeHeap(profile, requests, top) {
  const byFunction = new Map();
  let total = 0;
  const visit = (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    if (node.selfSize > 0) {
      const file = url.replace(/^file:\/\//, '').replace(`${ROOT}/`, '');
      const name = `${functionName || '(anonymous)'}  ${file ? `${file}:${lineNumber + 1}` : ''}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    node.children.forEach(visit);
  };
  visit(profile.head);
  console.log(`allocated ${(total / requests / 1024).toFixed(1)} KiB per request (${requests} requests)`);
  console.log(`\ntop ${top} functions by bytes allocated per request:`);
  for (const [name, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${String(Math.round(bytes / requests)).padStart(6)} B  ${name}`);
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-profile-'));
fs.writeFileSync(path.join(dataDir, 'seed.json'), JSON.stringify(buildSeed()));
const env = {
  NODE_ENV: 'production',
  PORT: String(PORT),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  SEED_FILE: path.join(dataDir, 'seed.json'),
};
const scripts = { start: 'scripts/serve.mjs', api: 'scripts/serve-api.mjs' };

// The database and a token come from the lean API server, whatever the target.
let server = start(scripts.api, [], env, false);
await ready(server);
const tokenResponse = await fetch(`http://127.0.0.1:${PORT}/api/v1/auth/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: BENCH_CLIENT.clientId,
    client_secret: BENCH_CLIENT.clientSecret,
  }),
});
const token = (await tokenResponse.json()).access_token;
await stop(server);

if (values.target === 'raw') {
  const { build } = await import('esbuild');
  const { serverOnly } = await import('../esbuild-server-only.mjs');
  const outfile = path.join(ROOT, '.bench', 'raw-server.mjs');
  await build({
    entryPoints: [path.join(ROOT, 'scripts', 'bench', 'raw-server.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    plugins: [serverOnly],
    outfile,
    logLevel: 'warning',
  });
  server = start(outfile, [], env, true);
} else if (scripts[values.target]) {
  server = start(scripts[values.target], [], env, true);
} else {
  throw new Error('--target: start, api or raw');
}
try {
  await ready(server);
  await load(token, 3); // warm-up: JIT, caches, the first statements prepared
  const profiler = await inspector(INSPECT_PORT);
  let result;
  let profile;
  if (values.heap) {
    await profiler.send('HeapProfiler.enable');
    // Every 1 KiB allocated on average, and what minor and major GCs collected kept in the profile:
    // a request's allocations are nearly all short-lived, and those are the ones wanted here.
    await profiler.send('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMinorGC: true,
      includeObjectsCollectedByMajorGC: true,
    });
    result = await load(token, Number(values.seconds));
    ({ profile } = await profiler.send('HeapProfiler.stopSampling'));
  } else {
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.setSamplingInterval', { interval: 100 });
    await profiler.send('Profiler.start');
    result = await load(token, Number(values.seconds));
    ({ profile } = await profiler.send('Profiler.stop'));
  }
  profiler.close();
  fs.mkdirSync(OUT, { recursive: true });
  const extension = values.heap ? 'heapprofile' : 'cpuprofile';
  const file = path.join(OUT, `${values.target}-${new Date().toISOString().replace(/[:.]/g, '-')}.${extension}`);
  fs.writeFileSync(file, JSON.stringify(profile));
  console.log(
    `${values.target}: ${(result.requests.total / result.duration).toFixed(1)} req/s under the profiler, ${values.connections} connections`,
  );
  console.log(`profile: ${path.relative(ROOT, file)}`);
  if (values.heap) summarizeHeap(profile, result.requests.total, Number(values.top));
  else summarize(profile, Number(values.top), ROOT);
} finally {
  await stop(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
