import { execFileSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium.mjs';

/**
 * e2e specs run against the production build (`npm run build` first). global-setup starts
 * the production server (`npm start`) with a fresh DATA_DIR and the e2e seed; the system Chromium drives browser specs.
 */
/**
 * The run's port: E2E_PORT when set, else one the system has free now, so two runs on one machine
 * (two engineers, or `npm test`'s SQLite and PostgreSQL passes) never meet on a fixed port. Chosen
 * once, by the runner: it writes E2E_PORT into its environment, which global-setup and the workers
 * it starts inherit, so they all agree on it.
 */
function freePortNow(): number {
  // The config is loaded synchronously: a short node process asks the system for a free port.
  const script =
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}
process.env.E2E_PORT ??= String(freePortNow());
const port = Number(process.env.E2E_PORT);

export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/support/global-setup.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  // CI runs two browser workers beside the server on a 2-CPU machine: a page's first render and
  // hydration can take longer there than the 5 s default allows, without anything being wrong.
  expect: { timeout: process.env.CI ? 10_000 : 5_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] },
  },
  projects: [
    { name: 'api', testMatch: /e2e\/api\/.*\.spec\.ts/ },
    { name: 'browser', testMatch: /e2e\/browser\/.*\.spec\.ts/, use: { browserName: 'chromium' } },
  ],
});
