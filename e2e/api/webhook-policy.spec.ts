import { expect, test, type APIRequestContext } from '@playwright/test';
import { FORBIDDEN_TARGETS, PUBLIC_TARGETS } from '../../lib/webhooks/configurations/url-policy.cases';
import { bearer, tokenFor, webhookPath } from '../support/api';
import { newDataDir, startServer } from '../support/server';
import { TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * The webhook URL and header policy through the real PUT route of the production build. The body is
 * checked before the configuration is looked up, so refused bodies go to an id nobody has (a1 is
 * left to the ETag spec, whose audit counts must not see these refusals); accepted ones go to a2.
 */
const REFUSED = 'aaaaaaaa-0f0f-4000-8000-00000000f0f0';
const ACCEPTED = WEBHOOK_IDS.a2;

let auth: Record<string, string>;
test.beforeAll(async ({ request }) => {
  auth = bearer(await tokenFor(request));
});

async function put(request: APIRequestContext, id: string, data: unknown, headers: Record<string, string> = {}) {
  return request.put(webhookPath(id), { headers: { ...auth, ...headers }, data });
}

async function expectRefused(request: APIRequestContext, data: unknown, field: string, code: string) {
  const response = await put(request, REFUSED, data);
  expect(response.status(), JSON.stringify(data).slice(0, 200)).toBe(400);
  expect(response.headers()['content-type']).toContain('application/problem+json');
  const body = await response.json();
  expect(body.errors, JSON.stringify(data).slice(0, 200)).toContainEqual(expect.objectContaining({ field, code }));
  return body;
}

test.describe('webhook URL policy', () => {
  test('every spelling of a loopback, private, link-local, CGNAT or metadata target is refused', async ({ request }) => {
    expect(FORBIDDEN_TARGETS.length).toBeGreaterThan(50);
    for (const url of FORBIDDEN_TARGETS) await expectRefused(request, { url }, 'url', 'urlPrivateTarget');
  });

  test('schemes, plain http, credentials, length, whitespace and relative URLs are refused with their own codes', async ({ request }) => {
    const cases: [string, string][] = [
      ['HTTP://receptor.exemplo.com.br/hooks', 'urlHttpsRequired'],
      ['http://receptor.exemplo.com.br/hooks', 'urlHttpsRequired'],
      ['ftp://receptor.exemplo.com.br/hooks', 'urlScheme'],
      ['file:///etc/passwd', 'urlScheme'],
      ['javascript:alert(1)', 'urlScheme'],
      ['gopher://127.0.0.1:25/', 'urlScheme'],
      ['https://usuario:senha@receptor.exemplo.com.br/hooks', 'urlCredentials'],
      ['https://usuario@receptor.exemplo.com.br/hooks', 'urlCredentials'],
      ['/hooks', 'urlInvalid'],
      ['receptor.exemplo.com.br', 'urlInvalid'],
      ['https://receptor.exemplo.com.br/a\r\nHost: evil', 'urlUnsafeCharacters'],
      ['https://evil.exemplo.com\\@receptor.exemplo.com.br/', 'urlUnsafeCharacters'],
      ['https://receptor.exemplo.com.br/' + 'a'.repeat(2048), 'too_big'],
    ];
    for (const [url, code] of cases) await expectRefused(request, { url }, 'url', code);
  });

  test('messages are in pt-BR by default and in English on request', async ({ request }) => {
    const pt = await (await put(request, REFUSED, { url: 'https://169.254.169.254/latest/meta-data/' })).json();
    expect(pt.errors[0].message).toMatch(/privado|metadados/);
    const en = await (await put(request, REFUSED, { url: 'https://169.254.169.254/' }, { 'Accept-Language': 'en' })).json();
    expect(en.errors[0].message).toMatch(/private|metadata/);
  });

  test('public targets, uppercase schemes and trailing dots included, are accepted and stored in the WHATWG form', async ({ request }) => {
    for (const url of PUBLIC_TARGETS) {
      const response = await put(request, ACCEPTED, { url });
      expect(response.status(), url).toBe(200);
      // What deliveries connect to: the parser's serialization (lowercase scheme and host, "/" path).
      expect((await response.json()).url).toBe(new URL(url).href);
    }
  });
});

test.describe('webhook header policy', () => {
  const RESERVED = [
    'Host',
    'Content-Length',
    'Content-Type',
    'Transfer-Encoding',
    'Connection',
    'Upgrade',
    'TE',
    'Trailer',
    'Expect',
    'Keep-Alive',
    'Proxy-Authorization',
    'proxy-connection',
    'HOST',
    'content-length',
  ];

  test('every hop-by-hop and framing name is refused, in any case', async ({ request }) => {
    for (const chave of RESERVED) {
      await expectRefused(
        request,
        {
          headers: [
            { chave: 'X-Ok', valor: '1' },
            { chave, valor: 'x' },
          ],
        },
        'headers.1.chave',
        'headerNameReserved',
      );
    }
  });

  test('names must be RFC 9110 tokens', async ({ request }) => {
    for (const chave of ['X Api', 'X-Api:', 'X-Api\r\nX-Injected', 'Çhave', ':authority', 'a/b', '(x)']) {
      await expectRefused(request, { headers: [{ chave, valor: 'x' }] }, 'headers.0.chave', 'headerNameToken');
    }
  });

  test('CR, LF and NUL in values are refused, and so are other control characters', async ({ request }) => {
    for (const valor of ['a\rb', 'a\nb', 'segredo\r\nX-Injected: 1', 'a\u0000b', '\r\n']) {
      await expectRefused(request, { headers: [{ chave: 'X-Api-Key', valor }] }, 'headers.0.valor', 'headerValueLineBreak');
    }
    await expectRefused(request, { headers: [{ chave: 'X-Api-Key', valor: 'a\u001bb' }] }, 'headers.0.valor', 'headerValueControl');
  });

  test('names are unique ignoring case', async ({ request }) => {
    const body = await expectRefused(
      request,
      {
        headers: [
          { chave: 'X-Api-Key', valor: '1' },
          { chave: 'X-Other', valor: '2' },
          { chave: 'x-api-key', valor: '3' },
        ],
      },
      'headers.2.chave',
      'headerDuplicate',
    );
    expect(body.errors).toHaveLength(1);
  });

  test('values have at most 4096 UTF-8 bytes; at most 20 headers, 16 KiB in all', async ({ request }) => {
    await expectRefused(request, { headers: [{ chave: 'X-Big', valor: 'ç'.repeat(2049) }] }, 'headers.0.valor', 'headerValueTooLong');
    const many = Array.from({ length: 21 }, (_, i) => ({ chave: `X-H${i}`, valor: 'v' }));
    await expectRefused(request, { headers: many }, 'headers', 'too_big');

    const oversized = Array.from({ length: 5 }, (_, i) => ({ chave: `X-H${i}`, valor: 'v'.repeat(4000) }));
    await expectRefused(request, { headers: oversized }, 'headers', 'headersTooLarge');

    const limit = [{ chave: 'X-Big', valor: 'ç'.repeat(2048) }, ...many.slice(0, 19)];
    const accepted = await put(request, ACCEPTED, { headers: limit });
    expect(accepted.status()).toBe(200);
    expect((await accepted.json()).headers).toEqual(limit);
  });
});

test('configuration relaxes the URL policy for local development only when asked', async ({ request }) => {
  const server = await startServer({
    dataDir: newDataDir('policy'),
    env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
  });
  try {
    const token = await (
      await request.post(`${server.url}/api/v1/auth/token`, {
        form: { grant_type: 'client_credentials', client_id: TENANT_A.clientId, client_secret: TENANT_A.clientSecret },
      })
    ).json();
    const headers = bearer(token.access_token);
    const local = await request.put(`${server.url}${webhookPath(ACCEPTED)}`, { headers, data: { url: 'http://localhost:4000/hooks' } });
    expect(local.status()).toBe(200);
    // Credentials and other schemes stay refused whatever the configuration.
    const withCredentials = await request.put(`${server.url}${webhookPath(ACCEPTED)}`, {
      headers,
      data: { url: 'http://u:p@localhost:4000/' },
    });
    expect((await withCredentials.json()).errors[0].code).toBe('urlCredentials');
  } finally {
    await server.stop();
  }
  // …while the shared server, configured strictly, still refuses it.
  await expectRefused(request, { url: 'http://localhost:4000/hooks' }, 'url', 'urlPrivateTarget');
});
