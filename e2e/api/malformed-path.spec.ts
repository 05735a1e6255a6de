import { expect, test } from '@playwright/test';
import { bearer, tokenFor, webhookPath } from '../support/api';
import { WEBHOOK_IDS } from '../support/test-seed';

/** Paths Next cannot percent-decode reach neither a route nor Next's own text/plain 500. */
test('an undecodable API path → 400 problem+json, with or without credentials', async ({ request }) => {
  const auth = bearer(await tokenFor(request));
  for (const path of [webhookPath('%E0%A4%A'), webhookPath('abc%E0'), webhookPath('%ZZ')]) {
    for (const headers of [{}, auth]) {
      const response = await request.get(path, { headers, maxRedirects: 0 });
      expect(response.status(), path).toBe(400);
      expect(response.headers()['content-type'], path).toContain('application/problem+json');
      expect(await response.json()).toMatchObject({ status: 400, type: expect.stringContaining('malformed-path') });
    }
  }
});

test('API paths that decode pass the proxy untouched: no sign-in redirect, the route answers', async ({ request }) => {
  const auth = bearer(await tokenFor(request));
  // Encoded but valid: the route decodes the id and answers for it.
  expect((await request.get(webhookPath(encodeURIComponent(WEBHOOK_IDS.a1)), { headers: auth })).status()).toBe(200);
  const unknown = await request.get(webhookPath('%C3%A7'), { headers: auth, maxRedirects: 0 });
  expect([400, 404]).toContain(unknown.status());
  expect(unknown.headers()['content-type']).toContain('application/problem+json');
  const anonymous = await request.get(webhookPath('%C3%A7'), { maxRedirects: 0 });
  expect(anonymous.status()).toBe(401);
  expect(anonymous.headers()['content-type']).toContain('application/problem+json');
});

test('an undecodable page address → a 400 page with the way back, console and portal', async ({ request }) => {
  for (const path of ['/webhooks/%E0%A4%A', '/portal/webhooks/%E0%A4%A', '/scheduling%ZZ', '/portal/entrar/abc%E0']) {
    const response = await request.get(path, { maxRedirects: 0, headers: { 'Accept-Language': 'pt-BR' } });
    expect(response.status(), path).toBe(400);
    expect(response.headers()['content-type'], path).toContain('text/html');
    expect(response.headers()['content-security-policy'], path).toContain("script-src 'self' 'nonce-");
    const html = await response.text();
    expect(html, path).toContain('<h1>Endereço inválido (400)</h1>');
    expect(html, path).toContain(`href="${path.startsWith('/portal') ? '/portal' : '/'}"`);
  }
  // The reader's language, as every page: English asked for, English answered.
  const english = await request.get('/webhooks/%E0%A4%A', { headers: { 'Accept-Language': 'en' } });
  expect(await english.text()).toContain('<h1>Invalid address (400)</h1>');
});
