import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium.mjs';

/**
 * e2e specs run against the production build (`npm run build` first). global-setup starts
 * the production server (`npm start`) with a fresh DATA_DIR and the e2e seed; the system Chromium drives browser specs.
 */
const port = Number(process.env.E2E_PORT ?? 3210);

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
