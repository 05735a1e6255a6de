import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { bearer, reservationBody, RESERVE_PATH } from '../support/api';
import { adminDatabaseUrl, createDatabase, dropDatabase } from '../support/databases';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { slotOf, TENANT_A } from '../support/test-seed';

/**
 * Reservations belong to the tenant that made them (issue 9), on a server of this spec's own that
 * also accepts the integration platform's tokens (a JWKS served here on 127.0.0.1) and allows 3
 * active holds per client. Agenda 936 is this spec's. In a PostgreSQL run it gets a fresh database
 * of its own, so the other specs' reservations do not count against its small quota.
 */
const ISSUER = 'https://auth.plataforma.exemplo.com.br';
const AUDIENCE = 'integration-console-api';
const RECENT = '/api/v1/agendamentos/reservas-recentes?limite=200';
const HOLD_LIMIT = 3;

let server: RunningServer;
let jwks: http.Server;
let keys: { privateKey: CryptoKey; publicKey: CryptoKey };
let databaseUrl: string | undefined;
const adminUrl = adminDatabaseUrl();

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  keys = await generateKeyPair('RS256');
  const served = [{ ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }];
  jwks = http.createServer((_, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: served })),
  );
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  const jwksPort = (jwks.address() as AddressInfo).port;
  databaseUrl = adminUrl ? await createDatabase(adminUrl, 'tenancy') : undefined;
  server = await startServer({
    dataDir: newDataDir('tenancy'),
    env: {
      PLATFORM_JWKS_URL: `http://127.0.0.1:${jwksPort}/jwks.json`,
      PLATFORM_TOKEN_ISSUER: ISSUER,
      PLATFORM_TOKEN_AUDIENCE: AUDIENCE,
      MAX_ACTIVE_HOLDS_PER_CLIENT: String(HOLD_LIMIT),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  jwks?.close();
  if (adminUrl && databaseUrl) await dropDatabase(adminUrl, databaseUrl);
});

/** A platform (JWKS) access token with the given claims. */
function platformToken(claims: { client_id: string; usuarioId: string }) {
  return new SignJWT({ sistemaOrigem: 3, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(claims.client_id)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(keys.privateKey);
}

const url = (path: string) => server.url + path;
const listed = async (request: APIRequestContext, headers: Record<string, string>) =>
  (await (await request.get(url(RECENT), { headers })).json()) as { token: string; estado: string }[];

test('a platform token with an embedded client’s client_id neither sees nor releases that client’s reservations', async ({ request }) => {
  const tokenAnswer = await request.post(url('/api/v1/auth/token'), {
    form: { grant_type: 'client_credentials', client_id: TENANT_A.clientId, client_secret: TENANT_A.clientSecret },
  });
  const clientA = bearer((await tokenAnswer.json()).access_token as string);
  const body = reservationBody({ nrSeqAgenda: slotOf(936, 0), cdPessoaFisica: 936_001 });
  const reserved = await request.post(url(RESERVE_PATH), { headers: clientA, data: body });
  expect(reserved.status()).toBe(200);
  const token: string = (await reserved.json()).TOKEN_RESERVA_P;

  // Same client_id, even the same usuarioId, but another issuer: another tenant.
  const impostor = bearer(await platformToken({ client_id: TENANT_A.clientId, usuarioId: TENANT_A.usuarioId }));
  expect((await listed(request, impostor)).some((r) => r.token === token)).toBe(false);
  const wrongToken = await request.post(url(RESERVE_PATH), {
    headers: impostor,
    data: { ...body, ieOpcao: 'CR', tokenReservaCanc: 'NAO-EXISTE' },
  });
  const stolen = await request.post(url(RESERVE_PATH), { headers: impostor, data: { ...body, ieOpcao: 'CR', tokenReservaCanc: token } });
  expect(stolen.status()).toBe(409);
  expect(await stolen.json()).toEqual(await wrongToken.json());
  expect((await stolen.json()).CODIGO_P).toBe('4');

  // The owner still holds it, and can release it.
  expect((await listed(request, clientA)).find((r) => r.token === token)).toMatchObject({ estado: 'active' });
  const released = await request.post(url(RESERVE_PATH), { headers: clientA, data: { ...body, ieOpcao: 'CR', tokenReservaCanc: token } });
  expect((await released.json()).CODIGO_P).toBe('1');
});

test(`a client holds at most ${HOLD_LIMIT} active reservations: past it 429 problem+json, nothing reserved`, async ({ request }) => {
  const client = bearer(await platformToken({ client_id: 'parceiro-cota', usuarioId: randomUUID() }));
  const reserve = (index: number, headers: Record<string, string> = client) =>
    request.post(url(RESERVE_PATH), {
      headers: { ...headers, 'Accept-Language': 'en' },
      data: reservationBody({ nrSeqAgenda: slotOf(936, index), cdPessoaFisica: 936_100 + index }),
    });
  const tokens: string[] = [];
  for (const index of [5, 6, 7]) {
    const answer = await reserve(index);
    expect((await answer.json()).CODIGO_P).toBe('0');
    tokens.push((await answer.json()).TOKEN_RESERVA_P);
  }
  const refused = await reserve(8);
  expect(refused.status()).toBe(429);
  expect(refused.headers()['content-type']).toContain('application/problem+json');
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);
  expect(await refused.json()).toMatchObject({ status: 429, detail: expect.stringMatching(/already holds 3 active reservations/) });

  // Nothing was reserved: another client takes the slot.
  const other = bearer(await platformToken({ client_id: 'parceiro-outro', usuarioId: randomUUID() }));
  expect((await (await reserve(8, other)).json()).CODIGO_P).toBe('0');

  // Releasing one makes room again.
  const release = await request.post(url(RESERVE_PATH), {
    headers: client,
    data: reservationBody({ nrSeqAgenda: slotOf(936, 5), cdPessoaFisica: 936_105, ieOpcao: 'CR', tokenReservaCanc: tokens[0] }),
  });
  expect((await release.json()).CODIGO_P).toBe('1');
  expect((await (await reserve(9)).json()).CODIGO_P).toBe('0');
});
