import { expect, test } from '@playwright/test';
import { reservationBody, RESERVE_PATH, webhookPath } from '../support/api';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { TENANT_A, WEBHOOK_IDS, slotOf } from '../support/test-seed';

/**
 * The log rule: JSON lines with the request's id, and never a secret or a patient identifier. The
 * spec runs its own server so that it can read every line a full reservation (reserve, then
 * release) and a webhook update with custom header values produce.
 */
let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer({ dataDir: newDataDir('logs') });
});

test.afterAll(async () => {
  await server?.stop();
});

test('a reservation and a webhook update log JSON lines with request ids and no secret or patient identifier', async () => {
  const call = (path: string, init: RequestInit & { requestId: string }) =>
    fetch(server.url + path, { ...init, headers: { ...(init.headers as Record<string, string>), 'X-Request-Id': init.requestId } });

  const tokenAnswer = await call('/api/v1/auth/token', {
    requestId: 'spec-logs-token',
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: TENANT_A.clientId, client_secret: TENANT_A.clientSecret }),
  });
  expect(tokenAnswer.headers.get('x-request-id')).toBe('spec-logs-token');
  const accessToken = ((await tokenAnswer.json()) as { access_token: string }).access_token;
  const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };

  const patient = { cdPessoaFisica: 987654321, cdUsuarioConvenio: '7766554433221' };
  const reserve = await call(RESERVE_PATH, {
    requestId: 'spec-logs-reserve',
    method: 'POST',
    headers,
    body: JSON.stringify(reservationBody({ nrSeqAgenda: slotOf(934, 0), ...patient })),
  });
  expect(reserve.status).toBe(200);
  expect(reserve.headers.get('x-request-id')).toBe('spec-logs-reserve');
  const reservationToken = ((await reserve.json()) as { TOKEN_RESERVA_P: string }).TOKEN_RESERVA_P;

  const release = await call(RESERVE_PATH, {
    requestId: 'spec-logs-release',
    method: 'POST',
    headers,
    body: JSON.stringify(reservationBody({ nrSeqAgenda: slotOf(934, 0), ieOpcao: 'CR', tokenReservaCanc: reservationToken, ...patient })),
  });
  expect(release.status).toBe(200);

  const headerValue = 'valor-secreto-do-parceiro-4242';
  const update = await call(webhookPath(WEBHOOK_IDS.a8), {
    requestId: 'spec-logs-webhook',
    method: 'PUT',
    headers,
    body: JSON.stringify({ headers: [{ chave: 'X-Api-Key', valor: headerValue }] }),
  });
  expect(update.status).toBe(200);

  // A request without an id gets one generated, returned to the caller.
  const anonymous = await fetch(`${server.url}/api/health`);
  const generated = anonymous.headers.get('x-request-id');
  expect(generated).toMatch(/^[0-9a-f-]{36}$/);

  // Lines reach the captured output a moment after the answers: wait for the last request's.
  await expect.poll(() => server.logs().includes(generated!)).toBe(true);
  const output = server.logs();
  for (const secret of [
    accessToken,
    TENANT_A.clientSecret,
    reservationToken,
    String(patient.cdPessoaFisica),
    patient.cdUsuarioConvenio,
    headerValue,
  ]) {
    expect(output).not.toContain(secret);
  }

  const lines = output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  for (const requestId of ['spec-logs-token', 'spec-logs-reserve', 'spec-logs-release', 'spec-logs-webhook', generated]) {
    const line = lines.find((entry) => entry.requestId === requestId && entry.event === 'api.request');
    expect(line, `an api.request line for ${requestId}`).toBeDefined();
    expect(line).toMatchObject({ level: 'info', time: expect.any(String), status: 200 });
  }
});
