// Why one console page's Lighthouse score moves between runs, which the medians of `npm run bench`
// section 6 cannot show: Lighthouse's mobile audit of the page, run by run, with its trace kept.
// Per run it prints the simulated metrics (what the score is made of), when the page was painted
// in the observed load, and the main thread's long tasks with what each one was made of.
//
// Lighthouse simulates a slow phone from an unthrottled load (Lantern): each observed task counts
// `--cpu` times, and a task over 50 ms blocks for the rest. So an observed task longer than
// 50 / cpu ms is what adds to Total Blocking Time, and the Largest Contentful Paint is estimated
// from the work observed before it: painted before the page's largest script evaluation, it is
// estimated from little; painted after it, from all of that work.
//
//   node scripts/bench/lighthouse-trace.mjs --url http://127.0.0.1:3000 --page /webhooks/<id>
//     [--runs 3] [--cpu 4] [--email … --password …] [--signed-out]
//
// The server is any running one (`npm start`); the sign-in defaults to the demo administrator
// (SEED_DEMO=true). `--cpu`: Lighthouse's default 4, or the calibrated slowdown section 6 printed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium, mobileAudit } from './lighthouse.mjs';
import { sessionCookie } from './session.mjs';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    page: { type: 'string', default: '/webhooks' },
    runs: { type: 'string', default: '3' },
    cpu: { type: 'string', default: '4' },
    email: { type: 'string', default: 'admin@clinica.exemplo.com.br' },
    password: { type: 'string', default: 'Admin#2026' },
    'signed-out': { type: 'boolean', default: false },
  },
});
const cpu = Number(values.cpu);
// Observed tasks at least this long are listed: a little under what blocks once simulated.
const LISTED_TASK_MS = Math.floor(50 / cpu) - 2;

const ms = (microseconds) => microseconds / 1000;
const round = (value) => Math.round(value);

/** A task's trace events by name (scripts by file), longest first: what the task was made of. */
function contents(task, events) {
  const totals = new Map();
  for (const event of events) {
    if (event === task || event.ts < task.ts || event.ts + event.dur > task.ts + task.dur) continue;
    const script = event.args?.data?.url ? ` ${event.args.data.url.split('/').pop()}` : '';
    const name = event.name === 'EvaluateScript' || event.name === 'FunctionCall' ? `${event.name}${script}` : event.name;
    totals.set(name, (totals.get(name) ?? 0) + event.dur);
  }
  return [...totals]
    .filter(([name]) => !/^(v8\.|V8\.|RunMicrotasks|ScriptCompiled|ScriptCatchup|EventDispatch)/.test(name))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([name, total]) => `${name} ${ms(total).toFixed(1)}`)
    .join(' · ');
}

/** The page's navigation start, and its renderer main thread's complete events (found from its first contentful paint). */
function pageThread(trace) {
  const events = trace.traceEvents ?? trace;
  const fcp = events.find((event) => event.name === 'firstContentfulPaint');
  if (!fcp) throw new Error('the trace has no first contentful paint');
  const { pid } = fcp;
  const start = events
    .filter((event) => event.name === 'navigationStart' && event.pid === pid && event.args?.frame === fcp.args.frame && event.ts <= fcp.ts)
    .at(-1).ts;
  const tid = events.find((event) => event.name === 'thread_name' && event.pid === pid && event.args?.name === 'CrRendererMain').tid;
  const complete = events.filter((event) => event.pid === pid && event.tid === tid && event.ph === 'X' && event.dur !== undefined);
  return { start, complete };
}

function report(run, lhr, trace) {
  const { audits } = lhr;
  const observed = audits.metrics.details.items[0];
  const { start, complete } = pageThread(trace);
  const at = (event) => round(ms(event.ts - start));
  const evaluations = complete.filter((event) => event.name === 'EvaluateScript');
  const largest = evaluations.reduce((most, event) => (event.dur > (most?.dur ?? 0) ? event : most), undefined);
  console.log(
    `run ${run}: score ${round(lhr.categories.performance.score * 100)} · simulated FCP ${round(audits['first-contentful-paint'].numericValue)}` +
      ` LCP ${round(audits['largest-contentful-paint'].numericValue)} TBT ${round(audits['total-blocking-time'].numericValue)}` +
      ` · observed FCP ${observed.observedFirstContentfulPaint} LCP ${observed.observedLargestContentfulPaint} ms`,
  );
  if (largest)
    console.log(
      `  largest script evaluation: ${largest.args.data.url.split('/').pop()} at ${at(largest)} ms, ${ms(largest.dur).toFixed(1)} ms;` +
        ` the LCP was painted ${observed.observedLargestContentfulPaint <= at(largest) ? 'before' : 'after'} it`,
    );
  const tasks = complete.filter((event) => event.name === 'RunTask' && ms(event.dur) >= LISTED_TASK_MS && event.ts >= start);
  for (const task of tasks) {
    console.log(`  task at ${String(at(task)).padStart(5)} ms ${ms(task.dur).toFixed(1).padStart(6)} ms  ${contents(task, complete)}`);
  }
}

const cookie = values['signed-out'] ? undefined : await sessionCookie(values.url, { email: values.email, password: values.password });
const headers = cookie ? { cookie } : {};
const pageUrl = `${values.url}${values.page}`;
const chrome = await launchChromium();
const dir = mkdtempSync(path.join(os.tmpdir(), 'lighthouse-trace-'));
try {
  // The server's first render of a route is its slowest; callers see warm servers.
  await fetch(pageUrl, { headers });
  console.log(`${pageUrl}: CPU slowdown ${cpu}×; observed tasks of ${LISTED_TASK_MS} ms or more (they block once simulated)`);
  for (let run = 1; run <= Number(values.runs); run++) {
    rmSync(dir, { recursive: true, force: true });
    const lhr = await mobileAudit(pageUrl, {
      port: chrome.port,
      headers,
      cpuSlowdownMultiplier: cpu,
      onlyCategories: ['performance'],
      artifactsDir: dir,
    });
    report(run, lhr, JSON.parse(readFileSync(path.join(dir, 'trace.json'), 'utf8')));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  await chrome.kill();
}
