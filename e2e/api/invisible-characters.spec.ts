import { expect, test } from '@playwright/test';
import { bearer, reservationBody, RESERVE_PATH, tokenFor, webhookPath } from '../support/api';
import { slotOf, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Zero-width and bidi-control characters make two values look alike (issue 9 §4): refused in
 * identifiers and URLs with 400 naming the field. Internationalised host names are stored in their
 * punycode form, so a Cyrillic look-alike cannot pass for the Latin name.
 */
const ID = WEBHOOK_IDS.a9;
// The tests share one configuration and one writes it, so they run in order on one worker.
test.describe.configure({ mode: 'default' });

test('a webhook URL with a zero-width, soft-hyphen or bidi character → 400 naming url; nothing saved', async ({ request }) => {
  const auth = bearer(await tokenFor(request));
  for (const url of ['https://exa\u200bmple.com/hooks', 'https://exa\u00admple.com/hooks', 'https://\u202emoc.elpmaxe/hooks']) {
    const response = await request.put(webhookPath(ID), { headers: auth, data: { url } });
    expect(response.status(), JSON.stringify(url)).toBe(400);
    expect((await response.json()).errors, JSON.stringify(url)).toEqual([
      expect.objectContaining({ field: 'url', code: 'urlInvisibleCharacters' }),
    ]);
  }
  expect((await (await request.get(webhookPath(ID), { headers: auth })).json()).url).toBe('https://receptor-a9.exemplo.com.br/hooks');
});

test('a header name with a zero-width character → 400 naming that header’s chave', async ({ request }) => {
  const auth = bearer(await tokenFor(request));
  const response = await request.put(webhookPath(ID), { headers: auth, data: { headers: [{ chave: 'X-Chave\u200b', valor: '1' }] } });
  expect(response.status()).toBe(400);
  expect((await response.json()).errors).toEqual([expect.objectContaining({ field: 'headers.0.chave' })]);
});

test('an internationalised host name is stored and answered in punycode', async ({ request }) => {
  const auth = bearer(await tokenFor(request));
  const saved = await request.put(webhookPath(ID), { headers: auth, data: { url: 'https://\u0430pple.com/hooks' } });
  expect(saved.status()).toBe(200);
  expect((await saved.json()).url).toBe('https://xn--pple-43d.com/hooks');
  expect((await (await request.get(webhookPath(ID), { headers: auth })).json()).url).toBe('https://xn--pple-43d.com/hooks');
  // Stored in the WHATWG form: lowercase host, an empty path becomes "/".
  const lower = await request.put(webhookPath(ID), { headers: auth, data: { url: 'https://Receptor-A9.Exemplo.com.br' } });
  expect((await lower.json()).url).toBe('https://receptor-a9.exemplo.com.br/');
});

test('nmUsuario, cdUsuarioConvenio or tokenReservaCanc with an invisible character → 400 naming each', async ({ request }) => {
  const auth = bearer(await tokenFor(request));
  const reserve = await request.post(RESERVE_PATH, {
    headers: auth,
    data: reservationBody({ nrSeqAgenda: slotOf(934, 5), nmUsuario: 'portal\u200b-parceiro', cdUsuarioConvenio: '\u202e0012345' }),
  });
  expect(reserve.status()).toBe(400);
  const fields = (await reserve.json()).errors.map((error: { field: string; code: string }) => `${error.field}:${error.code}`);
  expect(fields.sort()).toEqual(['cdUsuarioConvenio:invisibleCharacters', 'nmUsuario:invisibleCharacters']);

  const release = await request.post(RESERVE_PATH, {
    headers: auth,
    data: reservationBody({ nrSeqAgenda: slotOf(934, 5), ieOpcao: 'CR', tokenReservaCanc: 'AB\u2060CD' }),
  });
  expect((await release.json()).errors).toEqual([expect.objectContaining({ field: 'tokenReservaCanc', code: 'invisibleCharacters' })]);
});
