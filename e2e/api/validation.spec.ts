import { expect, test } from '@playwright/test';
import { bearer, reservationBody, RESERVE_PATH, tokenFor, webhookPath } from '../support/api';
import { WEBHOOK_IDS } from '../support/test-seed';

/**
 * Bad input of every kind gets a 4xx problem+json naming the field, before any back-end call, and
 * nothing in the answer reveals internals. Reservations here use slots of agenda 907, which must
 * stay free: a bad request that reached the scheduler would take one.
 */
const LEAK = /at \S+ \(|node_modules|SQLITE|knex|select |insert |ORA-|stack/i;

test.describe('validation of both operations', () => {
  let auth: Record<string, string>;
  test.beforeAll(async ({ request }) => {
    auth = bearer(await tokenFor(request));
  });

  async function expectProblem(response: import('@playwright/test').APIResponse, status: number, fields?: string[]) {
    expect(response.status()).toBe(status);
    expect(response.headers()['content-type']).toContain('application/problem+json');
    const text = await response.text();
    expect(text).not.toMatch(LEAK);
    const problem = JSON.parse(text);
    expect(problem).toMatchObject({ type: expect.any(String), title: expect.any(String), status });
    if (fields) expect(problem.errors.map((e: { field: string }) => e.field).sort()).toEqual([...fields].sort());
    return problem;
  }

  const reservationCases: [string, Record<string, unknown>, string[]][] = [
    ['a long as a string', { nrSeqAgenda: '907001' }, ['nrSeqAgenda']],
    ['a fraction', { nrSeqProcInterno: 70001.5 }, ['nrSeqProcInterno']],
    ['a negative code', { cdConvenio: -12 }, ['cdConvenio']],
    ['ieOpcao outside R/CR', { ieOpcao: 'C' }, ['ieOpcao']],
    ['ieLado outside E/D/A', { ieLado: 'X' }, ['ieLado']],
    ['CR without token', { ieOpcao: 'CR' }, ['tokenReservaCanc']],
    ['a token over 32 characters', { ieOpcao: 'CR', tokenReservaCanc: 'T'.repeat(33) }, ['tokenReservaCanc']],
    ['nmUsuario over 30', { nmUsuario: 'n'.repeat(31) }, ['nmUsuario']],
    ['nmUsuario with spaces around', { nmUsuario: ' portal ' }, ['nmUsuario']],
    ['an unknown field', { observacao: 'x' }, ['observacao']],
    ['null for a required long', { cdPlano: null }, ['cdPlano']],
  ];

  for (const [name, change, fields] of reservationCases) {
    test(`reservation: ${name} → 400 naming ${fields.join(', ')}`, async ({ request }) => {
      const response = await request.post(RESERVE_PATH, { headers: auth, data: reservationBody({ nrSeqAgenda: 907001, ...change }) });
      await expectProblem(response, 400, fields);
    });
  }

  test('reservation: missing required fields are each named', async ({ request }) => {
    const response = await request.post(RESERVE_PATH, { headers: auth, data: { ieOpcao: 'R' } });
    await expectProblem(response, 400, [
      'cdCategoria',
      'cdConvenio',
      'cdPessoaFisica',
      'cdPlano',
      'cdUsuarioConvenio',
      'nmUsuario',
      'nrMinDuracao',
      'nrSeqAgenda',
      'nrSeqProcInterno',
    ]);
  });

  test('an unknown exam is a 400 naming nrSeqProcInterno, not a missing slot', async ({ request }) => {
    const response = await request.post(RESERVE_PATH, {
      headers: auth,
      data: reservationBody({ nrSeqAgenda: 907001, nrSeqProcInterno: 123456 }),
    });
    const problem = await expectProblem(response, 400, ['nrSeqProcInterno']);
    expect(problem.errors[0]).toMatchObject({ code: 'unknownProcedure', pointer: '#/nrSeqProcInterno' });
    expect(problem.detail).toBe('nrSeqProcInterno names no exam of the scheduling back-end.');
  });

  test('the bad requests above reached no back-end: the slot is still free', async ({ request }) => {
    const free = await (await request.get('/api/v1/agendamentos/slots-livres?cdAgenda=907', { headers: auth })).json();
    expect(free.map((slot: { NR_SEQ_AGENDA: number }) => slot.NR_SEQ_AGENDA)).toContain(907001);
  });

  const webhookCases: [string, unknown, string[]][] = [
    ['url as a number', { url: 42 }, ['url']],
    ['an empty url', { url: '' }, ['url']],
    ['headers not a list', { headers: { chave: 'a', valor: 'b' } }, ['headers']],
    ['a header without valor', { headers: [{ chave: 'X-A' }] }, ['headers.0.valor']],
    ['a header with an extra key', { headers: [{ chave: 'X-A', valor: 'b', nome: 'c' }] }, ['headers.0.nome']],
    ['a flag as a string', { eventoPropostaCancelada: 'true' }, ['eventoPropostaCancelada']],
    ['an unknown field', { usuarioId: 'x' }, ['usuarioId']],
    ['a list as the body', [], ['']],
    ['null as the body', null, ['']],
  ];

  for (const [name, body, fields] of webhookCases) {
    test(`webhook: ${name} → 400 naming ${fields.join(', ') || 'the body'}`, async ({ request }) => {
      const response = await request.put(webhookPath(WEBHOOK_IDS.a8), {
        headers: { ...auth, 'content-type': 'application/json' },
        data: JSON.stringify(body),
      });
      await expectProblem(response, 400, fields);
    });
  }

  // A Buffer, because Playwright re-encodes a string body that is not valid JSON.
  test('a path id in uppercase names the same configuration', async ({ request }) => {
    const response = await request.get(webhookPath(WEBHOOK_IDS.a8.toUpperCase()), { headers: auth });
    expect(response.status()).toBe(200);
    expect((await response.json()).id).toBe(WEBHOOK_IDS.a8);
  });

  test('malformed JSON → 400', async ({ request }) => {
    for (const [method, path] of [
      ['put', webhookPath(WEBHOOK_IDS.a8)],
      ['post', RESERVE_PATH],
    ] as const) {
      const response = await request[method](path, {
        headers: { ...auth, 'content-type': 'application/json' },
        data: Buffer.from('{"url": "https://x.exemplo.com.br",'),
      });
      const problem = await expectProblem(response, 400);
      expect(problem.type).toContain('malformed-json');
    }
  });

  test('a body over 64 KiB → 413, whether or not Content-Length says so', async ({ request }) => {
    const huge = JSON.stringify({ url: 'https://x.exemplo.com.br/' + 'a'.repeat(70_000) });
    await expectProblem(
      await request.put(webhookPath(WEBHOOK_IDS.a8), { headers: { ...auth, 'content-type': 'application/json' }, data: huge }),
      413,
    );
    // Chunked upload: no Content-Length for the server to trust.
    const response = await fetch(new URL(RESERVE_PATH, test.info().project.use.baseURL), {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(huge));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  test('a body that is not JSON → 415', async ({ request }) => {
    const response = await request.post(RESERVE_PATH, { headers: { ...auth, 'content-type': 'text/plain' }, data: 'ieOpcao=R' });
    await expectProblem(response, 415);
  });

  test('a body declared in another charset → 415; bytes that are not UTF-8 → 400, never silently replaced', async ({ request }) => {
    for (const charset of ['latin1', 'utf-16']) {
      const response = await request.post(RESERVE_PATH, {
        headers: { ...auth, 'content-type': `application/json; charset=${charset}` },
        data: JSON.stringify(reservationBody()),
      });
      await expectProblem(response, 415);
    }
    // nmUsuario "ação" written in Latin-1: 0xE7 0xE3 are not UTF-8.
    const latin1 = Buffer.concat([Buffer.from('{"nmUsuario":"a'), Buffer.from([0xe7, 0xe3]), Buffer.from('o"}')]);
    const invalid = await request.post(RESERVE_PATH, { headers: { ...auth, 'content-type': 'application/json' }, data: latin1 });
    await expectProblem(invalid, 400);
    expect((await invalid.json()).errors[0].code).toBe('invalid_utf8');
  });

  test('problem messages follow Accept-Language', async ({ request }) => {
    const pt = await (await request.post(RESERVE_PATH, { headers: auth, data: reservationBody({ ieOpcao: 'Z' }) })).json();
    const en = await (
      await request.post(RESERVE_PATH, { headers: { ...auth, 'accept-language': 'en' }, data: reservationBody({ ieOpcao: 'Z' }) })
    ).json();
    expect(pt.errors[0].message).toMatch(/Valor não permitido/);
    expect(en.errors[0].message).toMatch(/Value not allowed/);
  });

  test('free-slot filters are validated too', async ({ request }) => {
    const response = await request.get('/api/v1/agendamentos/slots-livres?de=amanha&limite=9999', { headers: auth });
    await expectProblem(response, 400, ['de', 'limite']);
  });
});
