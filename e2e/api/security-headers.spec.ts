import { expect, test } from '@playwright/test';
import { newDataDir, startServer } from '../support/server';
import { staffSessionCookie } from '../support/server-db';
import { STAFF } from '../support/test-seed';

/**
 * Console pages' security headers (lib/http/security-headers.ts, set by proxy.ts). That the browser
 * then reports no violation on any page is checked by every browser spec (e2e/support/browser-test.ts).
 */
function directives(policy: string | undefined): Map<string, string> {
  return new Map((policy ?? '').split(';').map((part) => part.trim().split(/\s+(.*)/s) as [string, string]));
}

test('sign-in and console pages carry a nonce CSP, frame-ancestors none, a Permissions-Policy; no HSTS over http', async ({ request }) => {
  const nonces = new Set<string>();
  const cookie = await staffSessionCookie(STAFF.admin.email);
  for (const path of ['/sign-in', '/sign-in?callbackUrl=%2Fwebhooks', '/webhooks', '/scheduling']) {
    const response = await request.get(path, { maxRedirects: 0, headers: path.startsWith('/sign-in') ? {} : { cookie } });
    expect(response.status(), path).toBe(200);
    const headers = response.headers();
    const csp = directives(headers['content-security-policy']);
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp.get('script-src') ?? '')?.[1];
    expect(nonce, path).toBeDefined();
    nonces.add(nonce!);
    expect(csp.get('script-src'), path).not.toContain('unsafe-eval');
    expect(csp.get('script-src'), path).not.toContain('unsafe-inline');
    expect(csp.get('frame-ancestors'), path).toBe("'none'");
    expect(csp.get('object-src'), path).toBe("'none'");
    expect(headers['permissions-policy'], path).toContain('camera=()');
    expect(headers['strict-transport-security'], path).toBeUndefined();
    // Next put this response's nonce on its scripts.
    expect(await response.text(), path).toContain(`nonce="${nonce}"`);
  }
  expect(nonces.size).toBe(4);
});

test('HSTS when the public URL (NEXTAUTH_URL) is https', async () => {
  test.setTimeout(60_000);
  const server = await startServer({
    dataDir: newDataDir('hsts'),
    env: { NEXTAUTH_URL: 'https://console.exemplo.com.br' },
  });
  try {
    const response = await fetch(`${server.url}/sign-in`);
    expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const api = await fetch(`${server.url}/api/health`);
    expect(api.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  } finally {
    await server.stop();
  }
});
