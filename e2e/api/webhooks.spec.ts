import { expect, test } from '@playwright/test';
import { bearer, tokenFor, webhookPath } from '../support/api';
import { auditRows } from '../support/server-db';
import { TENANT_A, TENANT_B, WEBHOOK_IDS } from '../support/test-seed';

const CONFIG_KEYS = [
  'clientId',
  'eventoAgendamentoLiberado',
  'eventoAgendamentoOfertaExpirada',
  'eventoAgendamentoOfertado',
  'eventoAgendamentoReservado',
  'eventoAvaliacaoSaudeAguardandoAprovacao',
  'eventoAvaliacaoSaudeAprovada',
  'eventoAvaliacaoSaudeArquivada',
  'eventoAvaliacaoSaudeDesarquivada',
  'eventoPropostaCancelada',
  'headers',
  'id',
  'sistemaOrigem',
  'url',
  'usuarioId',
];

/** PUT/GET of §4.1 through the real route and database. Ids a6–a8 are this spec's own. */
test.describe('webhook configuration (§4.1)', () => {
  let tenantA: Record<string, string>;
  let tenantB: Record<string, string>;
  test.beforeAll(async ({ request }) => {
    tenantA = bearer(await tokenFor(request, TENANT_A));
    tenantB = bearer(await tokenFor(request, TENANT_B));
  });

  test('GET answers the §2.1 object, plus only whether deliveries go out, why not, whether the receiver is paused, the delivery controls, whether a broker login is stored and the payload control', async ({
    request,
  }) => {
    const response = await request.get(webhookPath(WEBHOOK_IDS.a6), { headers: tenantA });
    expect(response.status()).toBe(200);
    const config = await response.json();
    expect(Object.keys(config).sort()).toEqual(
      [
        ...CONFIG_KEYS,
        'ativo',
        'desativacao',
        'circuito',
        'limiteEntregasPorSegundo',
        'entregaOrdenada',
        'emailContato',
        'emailContatoConfirmado',
        'credenciais',
        'filtro',
        'campos',
        'transformacao',
      ].sort(),
    );
    expect(config).toMatchObject({
      ativo: true,
      desativacao: null,
      circuito: null,
      limiteEntregasPorSegundo: null,
      entregaOrdenada: false,
      emailContato: null,
      emailContatoConfirmado: false,
      credenciais: null,
      filtro: null,
      campos: [],
      transformacao: null,
    });
    expect(config).toMatchObject({ id: WEBHOOK_IDS.a6, usuarioId: TENANT_A.usuarioId, sistemaOrigem: 3, clientId: TENANT_A.clientId });
  });

  test('PUT keeps omitted fields, replaces the headers list when sent, and answers the whole object', async ({ request }) => {
    const path = webhookPath(WEBHOOK_IDS.a6);
    // The PUT answers the §2.1 object and `ativo`; the GET adds `desativacao` and `circuito`.
    const { desativacao, circuito, ...before } = await (await request.get(path, { headers: tenantA })).json();
    expect(desativacao).toBeNull();
    expect(circuito).toBeNull();

    const urlOnly = await request.put(path, { headers: tenantA, data: { url: 'https://novo-receptor.exemplo.com.br/v2' } });
    expect(urlOnly.status()).toBe(200);
    expect(await urlOnly.json()).toEqual({ ...before, url: 'https://novo-receptor.exemplo.com.br/v2' });

    const headers = [
      { chave: 'X-Assinatura', valor: 'abc' },
      { chave: 'X-Origem', valor: 'console' },
    ];
    const withHeaders = await (
      await request.put(path, { headers: tenantA, data: { headers, eventoAvaliacaoSaudeArquivada: true } })
    ).json();
    expect(withHeaders).toEqual({
      ...before,
      url: 'https://novo-receptor.exemplo.com.br/v2',
      headers,
      eventoAvaliacaoSaudeArquivada: true,
    });

    const cleared = await (await request.put(path, { headers: tenantA, data: { headers: [] } })).json();
    expect(cleared.headers).toEqual([]);
    expect(cleared.eventoAvaliacaoSaudeArquivada).toBe(true);

    const unchanged = await request.put(path, { headers: tenantA, data: {} });
    expect(await unchanged.json()).toEqual(cleared);
    expect(await (await request.get(path, { headers: tenantA })).json()).toEqual({ ...cleared, desativacao: null, circuito: null });
  });

  test('every event flag can be switched on and off', async ({ request }) => {
    const path = webhookPath(WEBHOOK_IDS.a7);
    const flags = [
      'eventoAvaliacaoSaudeAprovada',
      'eventoAvaliacaoSaudeAguardandoAprovacao',
      'eventoAvaliacaoSaudeArquivada',
      'eventoAvaliacaoSaudeDesarquivada',
      'eventoPropostaCancelada',
    ];
    for (const value of [true, false]) {
      const body = Object.fromEntries(flags.map((flag) => [flag, value]));
      expect(await (await request.put(path, { headers: tenantA, data: body })).json()).toMatchObject(body);
    }
  });

  test('emailContato, the technical contact (issue 31): set, kept when omitted, refused when not an address, removed with null', async ({
    request,
  }) => {
    const path = webhookPath(WEBHOOK_IDS.a7);
    const set = await request.put(path, { headers: tenantA, data: { emailContato: 'ti@parceiro-a.exemplo.com.br' } });
    expect(set.status()).toBe(200);
    expect(await set.json()).toMatchObject({ emailContato: 'ti@parceiro-a.exemplo.com.br', emailContatoConfirmado: false });
    const kept = await request.put(path, { headers: tenantA, data: { eventoPropostaCancelada: true } });
    expect(await kept.json()).toMatchObject({ emailContato: 'ti@parceiro-a.exemplo.com.br' });
    const refused = await request.put(path, { headers: tenantA, data: { emailContato: 'não é um endereço' } });
    expect(refused.status()).toBe(400);
    expect((await refused.json()).errors.map((error: { field: string }) => error.field)).toEqual(['emailContato']);
    expect(await (await request.get(path, { headers: tenantA })).json()).toMatchObject({ emailContato: 'ti@parceiro-a.exemplo.com.br' });
    const removed = await request.put(path, { headers: tenantA, data: { emailContato: null } });
    expect(await removed.json()).toMatchObject({ emailContato: null });
  });

  test('lists only the caller’s own configurations', async ({ request }) => {
    const listA = await (await request.get('/api/v2/avaliacao-saude/configuracao-web-hook', { headers: tenantA })).json();
    expect(listA.length).toBeGreaterThanOrEqual(8);
    expect(listA.every((config: { usuarioId: string }) => config.usuarioId === TENANT_A.usuarioId)).toBe(true);
    const listB = await (await request.get('/api/v2/avaliacao-saude/configuracao-web-hook', { headers: tenantB })).json();
    expect(listB.map((config: { id: string }) => config.id)).toEqual([WEBHOOK_IDS.b1]);
  });

  test('another tenant’s configuration answers exactly like an unknown id, and is not changed', async ({ request }) => {
    const unknown = await request.put(webhookPath('0c0c0c0c-0000-4000-8000-000000000000'), {
      headers: tenantB,
      data: { url: 'https://x.exemplo.com.br' },
    });
    const foreign = await request.put(webhookPath(WEBHOOK_IDS.a8), { headers: tenantB, data: { url: 'https://x.exemplo.com.br' } });
    expect(unknown.status()).toBe(404);
    expect(foreign.status()).toBe(404);
    expect(await foreign.json()).toEqual(await unknown.json());
    expect((await request.get(webhookPath(WEBHOOK_IDS.a8), { headers: tenantB })).status()).toBe(404);
    expect((await (await request.get(webhookPath(WEBHOOK_IDS.a8), { headers: tenantA })).json()).url).toBe(
      'https://receptor-a8.exemplo.com.br/hooks',
    );
  });

  test('a refused change to another tenant’s configuration is not written to its audit trail', async ({ request }) => {
    const refused = await request.put(webhookPath(WEBHOOK_IDS.a8), { headers: tenantB, data: { url: 'https://127.0.0.1/hook' } });
    expect(refused.status()).toBe(400);
    const rows = await auditRows(`webhook:${WEBHOOK_IDS.a8}`);
    expect(rows.filter((row) => row.actor_id === TENANT_B.clientId)).toEqual([]);
  });

  test('a path id that is not a UUID is a 400 naming id', async ({ request }) => {
    const response = await request.put(webhookPath('not-a-uuid'), { headers: tenantA, data: {} });
    expect(response.status()).toBe(400);
    expect(response.headers()['content-type']).toContain('application/problem+json');
    expect((await response.json()).errors).toEqual([expect.objectContaining({ field: 'id' })]);
  });
});
