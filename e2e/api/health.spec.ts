import { expect, test } from '@playwright/test';
import { bearer, reservationBody, RESERVE_PATH } from '../support/api';
import { freePort, newDataDir, startServer, type RunningServer } from '../support/server';
import { slotOf } from '../support/test-seed';

/** Liveness and readiness for load balancers, on the run's server and on broken back-ends. */
test('GET /api/health answers without authentication', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('no-store');
  expect(await response.json()).toEqual({ status: 'ok', tempoAtivoSegundos: expect.any(Number) });
});

test('GET /api/health/ready reports the database and the scheduling back-end with timings', async ({ request }) => {
  const response = await request.get('/api/health/ready');
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({
    status: 'ready',
    verificacoes: {
      bancoDeDados: { ok: true, ms: expect.any(Number), dialeto: process.env.E2E_RUN_DATABASE_URL ? 'postgres' : 'sqlite' },
      agendamento: { ok: true, ms: expect.any(Number), sistema: 'embedded' },
    },
  });
});

test.describe('with back-ends that cannot be reached', () => {
  test.describe.configure({ mode: 'serial' });
  let server: RunningServer;
  test.beforeAll(async () => {
    // Nothing listens on these ports: the database is refused, and so is the Oracle listener.
    server = await startServer({
      dataDir: newDataDir('unreachable'),
      env: {
        SCHEDULING_BACKEND: 'oracle',
        ORACLE_CONNECT_STRING: `127.0.0.1:${await freePort()}/FREEPDB1`,
        ORACLE_USER: 'integracao',
        ORACLE_PASSWORD: 'segredo-de-teste',
        ORACLE_PROCEDURE: 'TASY.AGENDA_PCK.RESERVAR_HORARIO',
        ORACLE_CONNECT_TIMEOUT_SECONDS: '2',
        ORACLE_RETRY_AFTER_SECONDS: '9',
      },
    });
  });
  test.afterAll(async () => server?.stop());

  test('readiness answers 503 naming the Oracle error code, liveness stays 200', async ({ request }) => {
    expect((await request.get(`${server.url}/api/health`)).status()).toBe(200);
    const response = await request.get(`${server.url}/api/health/ready`);
    expect(response.status()).toBe(503);
    const body = await response.json();
    expect(body.status).toBe('not-ready');
    expect(body.verificacoes.agendamento).toEqual({ ok: false, ms: expect.any(Number), erro: 'NJS-503', sistema: 'oracle' });
    expect(JSON.stringify(body)).not.toContain('segredo-de-teste');
  });

  test('a reservation answers the contract’s 500 with CODIGO_P 9, a generic message and Retry-After', async ({ request }) => {
    const auth = bearer(await tokenAt(server.url));
    const response = await request.post(`${server.url}${RESERVE_PATH}`, {
      headers: auth,
      data: reservationBody({ nrSeqAgenda: slotOf(932, 0) }),
    });
    expect(response.status()).toBe(500);
    expect(response.headers()['retry-after']).toBe('9');
    // The contract's own body (§7.2), not a problem: the back-end's failure is a refusal that carries it.
    expect(response.headers()['content-type']).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({
      IE_RESERVADO_P: 'N',
      TOKEN_RESERVA_P: '',
      CODIGO_P: '9',
      MENSAGEM_P: expect.stringMatching(/indisponível.*Nada foi alterado/),
    });
    await expect.poll(() => server.logs()).toContain('"errorCode":"NJS-503"');
    expect(server.logs()).not.toContain('0012345678901');
  });

  test('the free-slot listing answers 501 when no Oracle view is configured', async ({ request }) => {
    const response = await request.get(`${server.url}/api/v1/agendamentos/slots-livres`, { headers: bearer(await tokenAt(server.url)) });
    expect(response.status()).toBe(501);
    expect(response.headers()['content-type']).toContain('application/problem+json');
  });

  test('the exam listing answers 501: the Oracle back-end has no source for it', async ({ request }) => {
    const response = await request.get(`${server.url}/api/v1/agendamentos/procedimentos`, { headers: bearer(await tokenAt(server.url)) });
    expect(response.status()).toBe(501);
    expect(response.headers()['content-type']).toContain('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 501, type: 'urn:integration-console:problem:not-implemented' });
  });
});

test('with the database refused, the server does not start, and says why without the password', async () => {
  // The server opens its database at start (instrumentation): an unreachable one stops it there,
  // before a load balancer could send it traffic. (Readiness for a database lost later: lib/health.)
  const error = await startServer({
    dataDir: newDataDir('no-database'),
    env: { DATABASE_URL: `postgres://postgres:segredo-db@127.0.0.1:${await freePort()}/nada` },
  }).catch((e: unknown) => e);
  expect(String(error)).toMatch(/server exited early[\s\S]*cannot start[\s\S]*ECONNREFUSED/);
  expect(String(error)).not.toContain('segredo-db');
});

async function tokenAt(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=e2e-cliente-a&client_secret=e2e-segredo-cliente-a',
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}
