// Debian's Chromium and the flags every automated run gives it (Playwright's browser specs and the
// bench's Lighthouse audits): `npx playwright install` cannot download a browser on these machines,
// and the flags keep a headless run from calling home or waiting on a sandbox it cannot have.
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
