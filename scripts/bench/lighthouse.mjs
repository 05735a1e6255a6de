// Lighthouse's mobile audit (its default: emulated phone, simulated slow 4G and CPU) of the
// sign-in page, the webhook editor and the reservation page, in Debian's Chromium, signed in with
// a real session cookie.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { sessionCookie } from './session.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.mjs';

/** The median run by performance score: single Lighthouse runs vary by several points. */
const RUNS = 3;

export async function lighthouseScores({ url, staff, webhookId, minimalUrl }) {
  const cookie = await sessionCookie(url, staff);
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
  });
  try {
    console.log(`  median of ${RUNS} runs per page, after one warm-up load`);
    console.log('  page                                                  performance  accessibility  TBT ms  LCP ms');
    for (const [name, pageUrl, signedIn] of [
      ['minimal App Router page (baseline)', `${minimalUrl}/`, false],
      ['sign-in (/sign-in)', `${url}/sign-in`, false],
      ['webhook editor (/webhooks/{id})', `${url}/webhooks/${webhookId}`, true],
      ['reservation (/scheduling)', `${url}/scheduling`, true],
    ]) {
      const headers = signedIn ? { cookie } : {};
      // The server's first render of a route is its slowest; callers see warm servers.
      await fetch(pageUrl, { headers });
      const runs = [];
      for (let run = 0; run < RUNS; run++) {
        const result = await lighthouse(pageUrl, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
          extraHeaders: headers,
        });
        const { categories, audits } = result.lhr;
        runs.push({
          performance: Math.round((categories.performance?.score ?? 0) * 100),
          accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
          tbt: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
          lcp: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
        });
      }
      const median = runs.sort((a, b) => a.performance - b.performance)[Math.floor(RUNS / 2)];
      console.log(
        `  ${name.padEnd(52)} ${String(median.performance).padStart(12)} ${String(median.accessibility).padStart(14)} ${String(median.tbt).padStart(7)} ${String(median.lcp).padStart(7)}`,
      );
    }
  } finally {
    await chrome.kill();
  }
}
