import { parseScopes } from './scopes';
import 'server-only';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { refuse } from '@/lib/errors/refusal';
import { log } from '@/lib/log';
import { claimAt } from './claim-path';
import type { PlatformTokenConfig } from '@/lib/config/platform-tokens';
import type { ApiClientPrincipal } from './principal';

/**
 * The integration platform's access tokens: JWTs signed with the platform's keys, published at
 * PLATFORM_JWKS_URL. Verification pins the asymmetric algorithms, the issuer and the audience and
 * requires exp; configurable claims name the usuarioId, sistemaOrigem and clientId the token acts
 * for. The key set is fetched once per process and refetched when a token names an unknown key.
 */
const holder = globalThis as typeof globalThis & {
  __platformJwks?: { url: string; keys: ReturnType<typeof createRemoteJWKSet> };
};

function keySet(config: PlatformTokenConfig) {
  if (holder.__platformJwks?.url !== config.jwksUrl.href) {
    holder.__platformJwks = {
      url: config.jwksUrl.href,
      keys: createRemoteJWKSet(config.jwksUrl, { timeoutDuration: 5_000, cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 }),
    };
  }
  return holder.__platformJwks.keys;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The principal of a valid platform token; undefined when invalid; 503 when the key set cannot be had. */
export async function verifyPlatformToken(token: string, config: PlatformTokenConfig): Promise<ApiClientPrincipal | undefined> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keySet(config), {
      algorithms: config.algorithms,
      issuer: config.issuer,
      audience: config.audience,
      clockTolerance: config.clockToleranceSeconds,
      requiredClaims: ['exp'],
    }));
  } catch (error) {
    if (keySetUnavailable(error)) {
      log.error('auth.platform_jwks_unavailable', { errorCode: (error as { code?: string }).code ?? (error as Error).name });
      throw refuse.unavailable(5, 'The token issuer’s keys cannot be fetched right now. Try again shortly.');
    }
    log.warn('auth.platform_token_rejected', { reason: (error as { code?: string }).code ?? 'invalid' });
    return undefined;
  }
  return principalFrom(payload, config);
}

function principalFrom(payload: JWTPayload, config: PlatformTokenConfig): ApiClientPrincipal | undefined {
  const usuarioId = claimAt(payload, config.usuarioIdClaim);
  const sistemaOrigem = claimAt(payload, config.sistemaOrigemClaim);
  const clientId = claimAt(payload, config.clientIdClaim) ?? payload.azp ?? payload.sub;
  const sistema = typeof sistemaOrigem === 'string' && /^\d{1,9}$/.test(sistemaOrigem) ? Number(sistemaOrigem) : sistemaOrigem;
  if (
    typeof usuarioId !== 'string' ||
    !UUID.test(usuarioId) ||
    !Number.isSafeInteger(sistema) ||
    typeof clientId !== 'string' ||
    !clientId ||
    clientId.length > 100
  ) {
    log.warn('auth.platform_token_rejected', { reason: 'claims' });
    return undefined;
  }
  // RFC 9068 / RFC 8693: `scope` is space-separated; some issuers send `scp` as a list instead.
  const scopes = parseScopes(payload.scope ?? payload.scp);
  return { kind: 'api-client', issuer: 'platform', clientId, usuarioId: usuarioId.toLowerCase(), sistemaOrigem: sistema as number, scopes };
}

/** The key set could not be fetched or read: not the caller's fault, so not a 401. */
function keySetUnavailable(error: unknown): boolean {
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return true;
  if (error instanceof errors.JOSEError) return false;
  return error instanceof TypeError || (error instanceof Error && /fetch|ECONNREFUSED|network/i.test(error.message));
}
