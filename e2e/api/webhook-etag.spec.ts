import { expect, test, type APIRequestContext } from '@playwright/test';
import { auditRows } from '../support/server-db';
import { bearer, tokenFor, webhookPath } from '../support/api';
import { TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Optimistic concurrency on the webhook configuration (ETag / If-Match) and the audit entries of
 * its changes. Serial, and the only spec that changes a1, so versions here move only by its hand.
 */
test.describe.configure({ mode: 'serial' });

const ID = WEBHOOK_IDS.a1;
const PATH = webhookPath(ID);
let auth: Record<string, string>;

test.beforeAll(async ({ request }) => {
  auth = bearer(await tokenFor(request));
});

async function currentEtag(request: APIRequestContext): Promise<string> {
  const response = await request.get(PATH, { headers: auth });
  expect(response.status()).toBe(200);
  const etag = response.headers()['etag'];
  expect(etag).toMatch(/^"[^"]+"$/); // strong, quoted
  return etag!;
}

test('GET and PUT answer an ETag that changes with every write', async ({ request }) => {
  const before = await currentEtag(request);
  const put = await request.put(PATH, { headers: { ...auth, 'If-Match': before }, data: { eventoAvaliacaoSaudeArquivada: true } });
  expect(put.status()).toBe(200);
  const after = put.headers()['etag'];
  expect(after).toMatch(/^"[^"]+"$/);
  expect(after).not.toBe(before);
  expect(await currentEtag(request)).toBe(after);
});

test('a stale If-Match is refused with 412 and changes nothing', async ({ request }) => {
  const stale = await currentEtag(request);
  expect((await request.put(PATH, { headers: auth, data: { eventoPropostaCancelada: false } })).status()).toBe(200);
  const fresh = await currentEtag(request);

  const refused = await request.put(PATH, {
    headers: { ...auth, 'If-Match': stale },
    data: { url: 'https://nao-deve-gravar.exemplo.com.br/' },
  });
  expect(refused.status()).toBe(412);
  expect(refused.headers()['content-type']).toContain('application/problem+json');
  expect(await refused.json()).toMatchObject({ status: 412, type: expect.stringContaining('precondition-failed') });
  const stored = await (await request.get(PATH, { headers: auth })).json();
  expect(stored.url).not.toBe('https://nao-deve-gravar.exemplo.com.br/');
  expect(await currentEtag(request)).toBe(fresh);
});

test('If-Match uses strong comparison and accepts a list or *', async ({ request }) => {
  const etag = await currentEtag(request);
  // A weak validator never matches for a write (RFC 9110 §13.1.1).
  expect((await request.put(PATH, { headers: { ...auth, 'If-Match': `W/${etag}` }, data: {} })).status()).toBe(412);
  expect((await request.put(PATH, { headers: { ...auth, 'If-Match': '"outra-versao"' }, data: {} })).status()).toBe(412);

  const listed = await request.put(PATH, { headers: { ...auth, 'If-Match': `"outra-versao", ${etag}` }, data: {} });
  expect(listed.status()).toBe(200);
  const star = await request.put(PATH, { headers: { ...auth, 'If-Match': '*' }, data: {} });
  expect(star.status()).toBe(200);
  expect(star.headers()['etag']).not.toBe(listed.headers()['etag']);
});

test('without If-Match the contract’s behaviour stands: the change applies', async ({ request }) => {
  const response = await request.put(PATH, { headers: auth, data: { eventoAvaliacaoSaudeDesarquivada: true } });
  expect(response.status()).toBe(200);
  expect((await response.json()).eventoAvaliacaoSaudeDesarquivada).toBe(true);
});

test('an update is audited with before/after values and header values masked', async ({ request }) => {
  const url = `https://auditado-${Date.now()}.exemplo.com.br/hooks`;
  const secret = `segredo-${Date.now()}`;
  const response = await request.put(PATH, {
    headers: auth,
    data: { url, headers: [{ chave: 'Authorization', valor: `Bearer ${secret}` }] },
  });
  expect(response.status()).toBe(200);

  const entry = (await auditRows(`webhook:${ID}`, 'webhook.update')).find((row) => row.after?.url === url);
  expect(entry).toMatchObject({ actor_kind: 'api-client', actor_id: TENANT_A.clientId, outcome: 'updated', http_status: 200 });
  expect(entry!.after).toMatchObject({ id: ID, url, headers: [{ chave: 'Authorization', valor: '••••••' }] });
  expect(entry!.before).toMatchObject({ id: ID, headers: [expect.objectContaining({ valor: expect.not.stringContaining('segredo') })] });
  expect(entry!.after_json).not.toContain(secret);
  expect(entry!.before_json).not.toContain('segredo-do-receptor');
});

test('refused changes are audited too: a stale If-Match and a private target, without the refused values', async ({ request }) => {
  const stale = await currentEtag(request);
  await request.put(PATH, { headers: auth, data: {} });
  const before = (await auditRows(`webhook:${ID}`, 'webhook.update')).length;

  expect((await request.put(PATH, { headers: { ...auth, 'If-Match': stale }, data: {} })).status()).toBe(412);
  expect((await request.put(PATH, { headers: auth, data: { url: 'https://u:senha-secreta@169.254.169.254/' } })).status()).toBe(400);
  // A malformed body is not a change attempt worth an entry.
  expect((await request.put(PATH, { headers: auth, data: { eventoPropostaCancelada: 'sim' } })).status()).toBe(400);

  const added = (await auditRows(`webhook:${ID}`, 'webhook.update')).slice(before);
  expect(added.map((row) => [row.outcome, row.http_status])).toEqual([
    ['rejected', 412],
    ['rejected', 400],
  ]);
  expect(added[1]!.after).toEqual({
    problema: expect.stringContaining('validation'),
    erros: [{ campo: 'url', codigo: 'urlPrivateTarget' }],
  });
  expect(added[1]!.after_json).not.toContain('senha-secreta');
});
