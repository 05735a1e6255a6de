import { expect, test } from '@playwright/test';
import { auditRows, staffSessionCookie } from '../support/server-db';
import { bearer, reservationBody, RESERVE_PATH, tokenFor, webhookPath } from '../support/api';
import { slotOf, STAFF, TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * The audit trail: every change records who, what, when, the outcome and before/after values with
 * patient identifiers, header values and reservation tokens masked (agenda 914, webhook a2); and
 * only admins read it.
 */
let auth: Record<string, string>;
test.beforeAll(async ({ request }) => {
  auth = bearer(await tokenFor(request));
});

const CD_PESSOA_FISICA = 914_123_456;
const CD_USUARIO_CONVENIO = '0099887766554';

test('reserve and release are audited with the beneficiary masked', async ({ request }) => {
  const nrSeqAgenda = slotOf(914, 0);
  const body = reservationBody({ nrSeqAgenda, cdPessoaFisica: CD_PESSOA_FISICA, cdUsuarioConvenio: CD_USUARIO_CONVENIO });
  const startedAt = Date.now();
  const { TOKEN_RESERVA_P } = await (await request.post(RESERVE_PATH, { headers: auth, data: body })).json();
  await request.post(RESERVE_PATH, { headers: auth, data: { ...body, cdPessoaFisica: CD_PESSOA_FISICA + 1 } }); // taken: 2
  await request.post(RESERVE_PATH, { headers: auth, data: { ...body, ieOpcao: 'CR', tokenReservaCanc: TOKEN_RESERVA_P } });

  const rows = await auditRows(`slot:${nrSeqAgenda}`);
  expect(rows.map((row) => [row.action, row.outcome, row.http_status])).toEqual([
    ['slot.reserve', 'CODIGO_P=0', 200],
    ['slot.reserve', 'CODIGO_P=2', 409],
    ['slot.release', 'CODIGO_P=1', 200],
  ]);
  for (const row of rows) {
    expect(row).toMatchObject({ actor_kind: 'api-client', actor_id: TENANT_A.clientId });
    expect(row.after).toMatchObject({
      nrSeqAgenda,
      cdPessoaFisica: expect.stringMatching(/^•+\d{3}$/),
      cdUsuarioConvenio: expect.stringMatching(/^•+\d{4}$/),
    });
    expect(row.after_json).not.toContain(String(CD_PESSOA_FISICA).slice(0, 6));
    expect(row.after_json).not.toContain(CD_USUARIO_CONVENIO.slice(0, 9));
  }
  expect(rows[0]!.after).toMatchObject({ ieOpcao: 'R', CODIGO_P: '0', IE_RESERVADO_P: 'S' });
  expect(rows[2]!.after).toMatchObject({ ieOpcao: 'CR', CODIGO_P: '1', IE_RESERVADO_P: 'N' });
  expect(Date.now() - startedAt).toBeLessThan(60_000);
});

test('reservation tokens are masked in the trail, keeping their last 4 characters to match a release with its reservation', async ({
  request,
}) => {
  const nrSeqAgenda = slotOf(914, 5);
  const body = reservationBody({ nrSeqAgenda, cdPessoaFisica: 914_000_005 });
  const reserved = await request.post(RESERVE_PATH, { headers: auth, data: body });
  const { TOKEN_RESERVA_P: token } = (await reserved.json()) as { TOKEN_RESERVA_P: string };
  expect(token).toMatch(/^[0-9A-F]{32}$/);
  // A wrong token of the same length, then a short one, then the right one.
  const wrong = `${token.slice(0, -4)}${token.slice(-4) === '0000' ? '1111' : '0000'}`;
  for (const tokenReservaCanc of [wrong, 'ERRADO', token]) {
    await request.post(RESERVE_PATH, { headers: auth, data: { ...body, ieOpcao: 'CR', tokenReservaCanc } });
  }

  const rows = await auditRows(`slot:${nrSeqAgenda}`);
  const masked = `••••••••${token.slice(-4)}`;
  expect(rows.map((row) => [row.action, row.outcome, row.after?.tokenReservaCanc, row.after?.TOKEN_RESERVA_P])).toEqual([
    ['slot.reserve', 'CODIGO_P=0', null, masked],
    ['slot.release', 'CODIGO_P=4', `••••••••${wrong.slice(-4)}`, ''],
    ['slot.release', 'CODIGO_P=4', '••••••', ''],
    ['slot.release', 'CODIGO_P=1', masked, ''],
  ]);
  for (const row of rows) expect(row.after_json).not.toContain(token.slice(0, 28));

  // As admins read it, too.
  const cookie = await staffSessionCookie(STAFF.admin.email);
  const trail = await request.get(`/api/v1/auditoria?alvo=slot:${nrSeqAgenda}`, { headers: { Cookie: cookie } });
  expect(trail.status()).toBe(200);
  const text = await trail.text();
  expect(text).toContain(masked);
  expect(text).not.toContain(token.slice(0, 28));
  expect(text).not.toContain('ERRADO');
});

test('a webhook update is audited with header values masked', async ({ request }) => {
  const url = `https://audit-${crypto.randomUUID()}.exemplo.com.br/hooks`;
  const response = await request.put(webhookPath(WEBHOOK_IDS.a2), {
    headers: auth,
    data: { url, headers: [{ chave: 'X-Api-Key', valor: 'valor-que-nao-pode-vazar' }] },
  });
  expect(response.status()).toBe(200);
  const entry = (await auditRows(`webhook:${WEBHOOK_IDS.a2}`, 'webhook.update')).find((row) => row.after?.url === url);
  expect(entry).toMatchObject({ actor_id: TENANT_A.clientId, outcome: 'updated', http_status: 200 });
  expect(entry!.after).toMatchObject({ headers: [{ chave: 'X-Api-Key', valor: '••••••' }] });
  expect(entry!.before).toHaveProperty('url');
  expect(entry!.after_json).not.toContain('valor-que-nao-pode-vazar');
});

test.describe('GET /api/v1/auditoria', () => {
  test('is refused to API clients (403) and to anonymous callers (401)', async ({ request }) => {
    const asClient = await request.get('/api/v1/auditoria', { headers: auth });
    expect(asClient.status()).toBe(403);
    expect(asClient.headers()['content-type']).toContain('application/problem+json');
    expect((await request.get('/api/v1/auditoria')).status()).toBe(401);
  });

  test('is refused to staff without the admin role', async ({ request }) => {
    for (const user of [STAFF.webhooks, STAFF.scheduling]) {
      const response = await request.get('/api/v1/auditoria', { headers: { Cookie: await staffSessionCookie(user.email) } });
      expect(response.status(), user.email).toBe(403);
    }
  });

  test('shows admins the masked trail, filtered by target and action', async ({ request }) => {
    const nrSeqAgenda = slotOf(914, 10);
    await request.post(RESERVE_PATH, { headers: auth, data: reservationBody({ nrSeqAgenda, cdPessoaFisica: 914_000_777 }) });
    const cookie = await staffSessionCookie(STAFF.admin.email);
    const response = await request.get(`/api/v1/auditoria?alvo=slot:${nrSeqAgenda}&acao=slot.reserve`, { headers: { Cookie: cookie } });
    expect(response.status()).toBe(200);
    const entries = await response.json();
    expect(entries).toEqual([
      expect.objectContaining({
        tipoAtor: 'api-client',
        ator: TENANT_A.clientId,
        acao: 'slot.reserve',
        alvo: `slot:${nrSeqAgenda}`,
        resultado: 'CODIGO_P=0',
        statusHttp: 200,
        em: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        depois: expect.objectContaining({ cdPessoaFisica: expect.stringMatching(/^•+777$/) }),
      }),
    ]);
    expect(JSON.stringify(entries)).not.toContain('914000777');

    const bad = await request.get('/api/v1/auditoria?acao=apagar-tudo&limite=100000', { headers: { Cookie: cookie } });
    expect(bad.status()).toBe(400);
    expect((await bad.json()).errors.map((e: { field: string }) => e.field).sort()).toEqual(['acao', 'limite']);
  });
});
