// Lighthouse's mobile audit (its default: emulated phone, simulated slow 4G and CPU) of every
// console page, in Debian's Chromium, signed in with a real session cookie, beside a minimal App
// Router page measured the same way.
//
// Lighthouse's CPU slowdown is relative to the host: its default 4× turns a high-end desktop
// (BenchmarkIndex 1500–2000) into a mid-tier phone. On a slower host the same 4× models a much
// slower phone, and Lighthouse itself warns that the score suffers. Its throttling guide
// (docs/throttling.md, "Calibrating the CPU slowdown") says to lower the multiplier from the host's
// BenchmarkIndex. So every page is scored twice: with the default 4×, and with the multiplier
// Lighthouse's CPU throttling calculator gives for this host's BenchmarkIndex (same phone target).
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { pageCookies } from './session.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.mjs';

/** The median run by performance score: single Lighthouse runs vary by several points. */
const DEFAULT_RUNS = 5;
const DEFAULT_MULTIPLIER = 4;

/**
 * The CPU slowdown that makes a host of this BenchmarkIndex a mid-tier phone, as Lighthouse's CPU
 * throttling calculator (linked from its throttling guide) computes it: 3× at 1300, +1× per 233
 * above; 2× at 800 and 1× at 150, linear between. Hosts slower than that get no slowdown.
 */
export function calibratedMultiplier(benchmarkIndex) {
  if (benchmarkIndex >= 1300) return 3 + (benchmarkIndex - 1300) / 233;
  if (benchmarkIndex >= 800) return 2 + (benchmarkIndex - 800) / 500;
  if (benchmarkIndex >= 150) return 1 + (benchmarkIndex - 150) / 650;
  return 1;
}

/**
 * The console and portal pages of sections 5 and 6: [key, name, path, session], the session being
 * the cookie a visit carries ('none', the bench admin's 'staff', or the bench tenant's 'portal',
 * session.mjs). `--pages reserva,portal` limits both sections to those keys (the minimal page is
 * always measured beside them).
 */
export function consolePages(webhookId) {
  return [
    ['sign-in', 'sign-in (/sign-in)', '/sign-in', 'none'],
    ['webhooks', 'webhooks list (/webhooks)', '/webhooks', 'staff'],
    ['editor', 'webhook editor (/webhooks/{id})', `/webhooks/${webhookId}`, 'staff'],
    ['nova', 'new configuration (/webhooks/new)', '/webhooks/new', 'staff'],
    ['reserva', 'reservation (/scheduling)', '/scheduling', 'staff'],
    ['clientes', 'API clients (/admin/clientes)', '/admin/clientes', 'staff'],
    ['equipe', 'staff (/admin/equipe)', '/admin/equipe', 'staff'],
    ['conta', 'account (/conta)', '/conta', 'staff'],
    ['saude', 'triage (/webhooks/saude)', '/webhooks/saude', 'staff'],
    ['portal-entrar', 'portal entry (/portal/entrar)', '/portal/entrar', 'none'],
    ['portal', 'portal configurations (/portal)', '/portal', 'portal'],
    ['portal-editor', 'portal editor (/portal/webhooks/{id})', `/portal/webhooks/${webhookId}`, 'portal'],
    ['portal-eventos', 'portal events (/portal/eventos)', '/portal/eventos', 'portal'],
  ];
}

/** The keys of `--pages` (comma-separated), checked against consolePages; undefined: every page. */
export function chosenPages(list) {
  if (!list) return undefined;
  const keys = list
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  const known = consolePages('').map(([key]) => key);
  const unknown = keys.filter((key) => !known.includes(key));
  if (unknown.length > 0) throw new Error(`--pages: unknown ${unknown.join(', ')} (known: ${known.join(', ')})`);
  return keys;
}

const median = (list, by) => [...list].sort((a, b) => by(a) - by(b))[Math.floor(list.length / 2)];

/** Debian's Chromium, headless, with the flags every automated run gives it. */
export function launchChromium() {
  return chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: ['--headless=new', ...CHROMIUM_ARGS] });
}

/**
 * One Lighthouse mobile audit with this CPU slowdown (the rest of the mobile defaults as they are),
 * checked to have taken it. `artifactsDir`: also keep the run's artifacts (its trace) there.
 */
export async function mobileAudit(pageUrl, { port, headers, cpuSlowdownMultiplier, onlyCategories, artifactsDir = undefined }) {
  const result = await lighthouse(pageUrl, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories,
    extraHeaders: headers,
    // Merged into the mobile defaults: the network and the phone stay as they are.
    throttling: { cpuSlowdownMultiplier },
    // Gathering and auditing in one go, with the artifacts written to the folder on the way.
    ...(artifactsDir ? { gatherMode: artifactsDir, auditMode: artifactsDir } : {}),
  });
  const { configSettings } = result.lhr;
  if (configSettings.throttling.cpuSlowdownMultiplier !== cpuSlowdownMultiplier || configSettings.formFactor !== 'mobile')
    throw new Error('Lighthouse did not take the CPU slowdown');
  return result.lhr;
}

async function audit(pageUrl, port, headers, cpuSlowdownMultiplier) {
  const { categories, audits, environment } = await mobileAudit(pageUrl, {
    port,
    headers,
    cpuSlowdownMultiplier,
    onlyCategories: ['performance', 'accessibility'],
  });
  return {
    performance: Math.round((categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
    tbt: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
    lcp: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
    benchmarkIndex: environment.benchmarkIndex,
  };
}

/**
 * `runs` per page and multiplier (the median is printed); `multipliers`: 'both' (Lighthouse's
 * default 4× and the calibrated one), 'calibrated' alone (the one issue 32's target is read on), or
 * a number: that slowdown alone, to set one run beside another whose host calibrated to it (the
 * calibration moves with the machine's load).
 */
export async function lighthouseScores({
  url,
  staff,
  tenant,
  webhookId,
  minimalUrl,
  runs: RUNS = DEFAULT_RUNS,
  multipliers = 'both',
  only = undefined,
}) {
  const cookies = await pageCookies(url, staff, tenant);
  const chrome = await launchChromium();
  // [key for --pages, name, address, session]; the baseline is always measured, and first.
  const every = [
    ['minimal', 'minimal App Router page (baseline)', `${minimalUrl}/`, 'none'],
    ...consolePages(webhookId).map(([key, name, pagePath, session]) => [key, name, `${url}${pagePath}`, session]),
  ];
  const pages = every.filter(([key]) => key === 'minimal' || !only || only.includes(key)).map(([, ...page]) => page);
  try {
    // The host's BenchmarkIndex, from Lighthouse's own measurement in three runs of the baseline.
    await fetch(pages[0][1]);
    const calibration = [];
    for (let run = 0; run < RUNS; run++) calibration.push(await audit(pages[0][1], chrome.port, {}, DEFAULT_MULTIPLIER));
    const benchmarkIndex = median(calibration, (run) => run.benchmarkIndex).benchmarkIndex;
    const calibrated = Math.round(calibratedMultiplier(benchmarkIndex) * 100) / 100;
    console.log(`  host BenchmarkIndex ${Math.round(benchmarkIndex)} (Lighthouse: 1500–2000 high-end desktop, 1000–1500 low-end desktop)`);
    console.log(`  CPU slowdown: Lighthouse's default ${DEFAULT_MULTIPLIER}×, and ${calibrated}× calibrated for this host`);
    console.log(`  median of ${RUNS} runs per page and multiplier (score and TBT each), after one warm-up load; each run's score last`);
    console.log(
      '  page                                   CPU ×   performance  vs baseline  accessibility  TBT ms  TBT vs baseline  LCP ms  runs (performance)',
    );
    // The baseline's score per multiplier: a page's distance from it is what the app adds, where
    // the absolute score also moves with the host (on a fast host the calibrated multiplier is high
    // and even the baseline drops below 95).
    const baseline = new Map();
    const baselineTbt = new Map();
    const fixed = Number(multipliers);
    const chosen = multipliers === 'calibrated' ? [calibrated] : fixed > 0 ? [fixed] : [DEFAULT_MULTIPLIER, calibrated];
    for (const [name, pageUrl, session] of pages) {
      const headers = cookies[session] ? { cookie: cookies[session] } : {};
      // The server's first render of a route is its slowest; callers see warm servers.
      await fetch(pageUrl, { headers });
      for (const multiplier of chosen) {
        const runs = [];
        for (let run = 0; run < RUNS; run++) runs.push(await audit(pageUrl, chrome.port, headers, multiplier));
        const mid = median(runs, (run) => run.performance);
        // TBT's own median: the run of median score need not have the median TBT.
        const tbt = median(runs, (run) => run.tbt).tbt;
        if (!baseline.has(multiplier)) {
          baseline.set(multiplier, mid.performance);
          baselineTbt.set(multiplier, tbt);
        }
        const delta = mid.performance - baseline.get(multiplier);
        const tbtRatio = baselineTbt.get(multiplier) > 0 ? `${(tbt / baselineTbt.get(multiplier)).toFixed(2)}×` : '–';
        console.log(
          `  ${name.padEnd(38)} ${String(multiplier).padStart(5)} ${String(mid.performance).padStart(13)} ${(delta > 0 ? `+${delta}` : String(delta)).padStart(12)} ${String(mid.accessibility).padStart(14)} ${String(tbt).padStart(7)} ${tbtRatio.padStart(16)} ${String(mid.lcp).padStart(7)}  ${runs.map((run) => run.performance).join(' ')}`,
        );
      }
    }
  } finally {
    await chrome.kill();
  }
}
