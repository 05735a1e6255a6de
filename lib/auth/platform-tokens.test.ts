import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { closeDb, getDb } from '@/lib/db/handle';
import { Refusal } from '@/lib/errors/refusal';
import { issueAccessToken, verifyAccessToken } from './access-tokens';
import { dispatch } from '@/lib/api/dispatch';
import { demoSeed } from '@/lib/seed/demo-seed';
import { seedSchema } from '@/lib/seed/seed-format';
import { prepareDatabase } from '@/lib/seed/prepare';
import { resetEnv } from '@/lib/testing/hooks';

/**
 * The integration platform's tokens through jose's real JWKS path: the key set is served over HTTP
 * by a small server on 127.0.0.1, and tokens are signed with keys jose generated.
 */
const PORT = 3592;
const ISSUER = 'https://auth.plataforma.exemplo.com.br';
const AUDIENCE = 'integration-console-api';
const tenant = seedSchema.parse(demoSeed()).apiClients[0]!;

let rsa: { privateKey: CryptoKey; publicKey: CryptoKey };
let ec: { privateKey: CryptoKey; publicKey: CryptoKey };
let stranger: { privateKey: CryptoKey; publicKey: CryptoKey };
let served: JWK[] = [];
let jwksRequests = 0;
let server: http.Server;

beforeAll(async () => {
  rsa = await generateKeyPair('RS256');
  ec = await generateKeyPair('ES256');
  stranger = await generateKeyPair('RS256');
  served = [
    { ...(await exportJWK(rsa.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' },
    { ...(await exportJWK(ec.publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' },
  ];
  server = http.createServer((_, response) => {
    jwksRequests++;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: served }));
  });
  await new Promise<void>((resolve) => server.listen(PORT, '127.0.0.1', resolve));
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-platform-tokens-'));
  process.env.LOG_SILENT = 'true';
  process.env.SEED_DEMO = 'true'; // the demo's tenants, which the tokens below name
  delete process.env.DATABASE_URL;
  resetEnv();
  await prepareDatabase(await getDb()); // as the server does at start (lib/startup.ts)
});

afterAll(async () => {
  await closeDb();
  server.close();
});

function configure(extra: Record<string, string> = {}) {
  for (const key of Object.keys(process.env)) if (key.startsWith('PLATFORM_') || key === 'AUTH_EMBEDDED_ISSUER') delete process.env[key];
  Object.assign(process.env, {
    PLATFORM_JWKS_URL: `http://127.0.0.1:${PORT}/.well-known/jwks.json`,
    PLATFORM_TOKEN_ISSUER: ISSUER,
    PLATFORM_TOKEN_AUDIENCE: AUDIENCE,
    ...extra,
  });
  resetEnv();
}

beforeEach(() => configure());

type Claims = Record<string, unknown>;
async function platformToken(
  claims: Claims = {},
  options: { key?: CryptoKey; alg?: string; kid?: string; expires?: string; issuer?: string; audience?: string } = {},
) {
  return new SignJWT({ usuarioId: tenant.usuarioId, sistemaOrigem: tenant.sistemaOrigem, client_id: 'parceiro-via-plataforma', ...claims })
    .setProtectedHeader({ alg: options.alg ?? 'RS256', kid: options.kid ?? 'rsa-1' })
    .setIssuer(options.issuer ?? ISSUER)
    .setAudience(options.audience ?? AUDIENCE)
    .setSubject('svc-123')
    .setIssuedAt()
    .setExpirationTime(options.expires ?? '5m')
    .sign(options.key ?? rsa.privateKey);
}

describe('platform access tokens (JWKS)', () => {
  it('accepts an RS256 or ES256 token from the key set and maps its claims to the principal', async () => {
    expect(await verifyAccessToken(await platformToken())).toEqual({
      kind: 'api-client',
      issuer: 'platform',
      clientId: 'parceiro-via-plataforma',
      usuarioId: tenant.usuarioId,
      sistemaOrigem: tenant.sistemaOrigem,
      // No scope claim: what every client could do before scopes existed.
      scopes: ['webhooks', 'scheduling'],
    });
    const viaEc = await verifyAccessToken(await platformToken({}, { key: ec.privateKey, alg: 'ES256', kid: 'ec-1' }));
    expect(viaEc?.usuarioId).toBe(tenant.usuarioId);
  });

  it('reads configurable (nested) claim names, and a numeric string sistemaOrigem', async () => {
    configure({
      PLATFORM_USUARIO_ID_CLAIM: 'ext.usuario_id',
      PLATFORM_SISTEMA_ORIGEM_CLAIM: 'ext.sistema',
      PLATFORM_CLIENT_ID_CLAIM: 'azp',
    });
    const token = await platformToken({
      usuarioId: undefined,
      ext: { usuario_id: tenant.usuarioId.toUpperCase(), sistema: '42' },
      azp: 'app-x',
    });
    expect(await verifyAccessToken(token)).toEqual({
      kind: 'api-client',
      issuer: 'platform',
      clientId: 'app-x',
      usuarioId: tenant.usuarioId,
      sistemaOrigem: 42,
      scopes: ['webhooks', 'scheduling'],
    });
  });

  it('reads the granted scopes from `scope` (space-separated) or `scp` (a list)', async () => {
    expect((await verifyAccessToken(await platformToken({ scope: 'eventos:publicar webhooks' })))?.scopes).toEqual([
      'eventos:publicar',
      'webhooks',
    ]);
    expect((await verifyAccessToken(await platformToken({ scp: ['scheduling'] })))?.scopes).toEqual(['scheduling']);
  });

  const rejected: Array<[string, () => Promise<string>]> = [
    ['another audience', () => platformToken({}, { audience: 'other-api' })],
    ['an expired token', () => platformToken({}, { expires: '-10m' })],
    ['a key outside the key set', () => platformToken({}, { key: stranger.privateKey, kid: 'rsa-1' })],
    ['an unknown kid', () => platformToken({}, { key: stranger.privateKey, kid: 'rsa-9' })],
    ['a usuarioId that is not a UUID', () => platformToken({ usuarioId: 'fulano' })],
    ['no usuarioId claim', () => platformToken({ usuarioId: undefined })],
    ['a fractional sistemaOrigem', () => platformToken({ sistemaOrigem: 3.5 })],
    [
      'HS256 signed with a guessed secret',
      () =>
        new SignJWT({ usuarioId: tenant.usuarioId, sistemaOrigem: 1 })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode('x'.repeat(32))),
    ],
    [
      'alg none',
      async () =>
        `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify({ iss: ISSUER, aud: AUDIENCE, usuarioId: tenant.usuarioId, sistemaOrigem: 1, exp: 9_999_999_999 })).toString('base64url')}.`,
    ],
    ['an issuer nobody configured', () => platformToken({}, { issuer: 'https://evil.example' })],
  ];
  for (const [label, make] of rejected) {
    it(`refuses ${label}`, async () => {
      expect(await verifyAccessToken(await make())).toBeUndefined();
    });
  }

  it('an algorithm outside the configured allow-list is refused even with a valid key', async () => {
    configure({ PLATFORM_TOKEN_ALGORITHMS: 'RS256' });
    expect(await verifyAccessToken(await platformToken({}, { key: ec.privateKey, alg: 'ES256', kid: 'ec-1' }))).toBeUndefined();
  });

  it('fetches the key set once, not per request', async () => {
    const before = jwksRequests;
    for (let i = 0; i < 5; i++) expect(await verifyAccessToken(await platformToken())).toBeDefined();
    expect(jwksRequests - before).toBeLessThanOrEqual(1);
  });

  it('a key set that cannot be fetched is a 503, not a 401', async () => {
    configure({ PLATFORM_JWKS_URL: 'http://127.0.0.1:3593/jwks.json' });
    const error = await verifyAccessToken(await platformToken()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Refusal);
    expect(error).toMatchObject({ kind: 'unavailable', options: { retryAfterSeconds: 5 } });
  });

  it('opens the real API route: a platform token lists its own tenant’s webhook configurations', async () => {
    const response = await dispatch(
      new Request('http://localhost/api/v2/avaliacao-saude/configuracao-web-hook', {
        headers: { authorization: `Bearer ${await platformToken()}` },
      }),
    );
    expect(response.status).toBe(200);
    const configs = (await response.json()) as Array<{ usuarioId: string }>;
    expect(configs.length).toBeGreaterThan(0);
    expect(configs.every((config) => config.usuarioId === tenant.usuarioId)).toBe(true);
  });
});

describe('the embedded issuer', () => {
  it('keeps working beside the platform while enabled', async () => {
    const { token } = await issueAccessToken({
      clientId: tenant.clientId,
      usuarioId: tenant.usuarioId,
      sistemaOrigem: tenant.sistemaOrigem,
      scopes: ['webhooks'],
    });
    expect(await verifyAccessToken(token)).toMatchObject({ clientId: tenant.clientId, scopes: ['webhooks'] });
  });

  it('when switched off, its tokens are refused and its endpoint answers 404', async () => {
    const { token } = await issueAccessToken({
      clientId: tenant.clientId,
      usuarioId: tenant.usuarioId,
      sistemaOrigem: tenant.sistemaOrigem,
      scopes: ['webhooks'],
    });
    configure({ AUTH_EMBEDDED_ISSUER: 'false' });
    expect(await verifyAccessToken(token)).toBeUndefined();
    expect(await verifyAccessToken(await platformToken())).toBeDefined();
    const response = await dispatch(
      new Request('http://localhost/api/v1/auth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      }),
    );
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });

  it('cannot be switched off without a platform to take over, and the two issuers must differ', async () => {
    for (const key of Object.keys(process.env)) if (key.startsWith('PLATFORM_')) delete process.env[key];
    process.env.AUTH_EMBEDDED_ISSUER = 'false';
    resetEnv();
    await expect(verifyAccessToken('x')).rejects.toThrow(/AUTH_EMBEDDED_ISSUER/);
    configure({ PLATFORM_TOKEN_ISSUER: 'integration-console' });
    await expect(verifyAccessToken('x')).rejects.toThrow(/PLATFORM_TOKEN_ISSUER: must differ/);
    configure({ PLATFORM_JWKS_URL: 'http://jwks.exemplo.com.br/keys' });
    await expect(verifyAccessToken('x')).rejects.toThrow(/PLATFORM_JWKS_URL: must be https/);
  });
});
