import 'server-only';
import { createSecretKey, type KeyObject, type webcrypto } from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import { env } from '@/lib/config/env';
import { signingSecret } from './signing-secret';
import type { ApiClientPrincipal } from './principal';
import { verifyPlatformToken } from './platform-tokens';
import { parseScopes } from './scopes';
import { clientIsActive } from './client-state';
import { verifyHs256 } from './hs256';

/**
 * Short-lived HS256 access tokens for API clients (OAuth 2.0 client credentials). Verification
 * pins the algorithm and requires exp, iss and aud, so `alg: none` or a token minted for another
 * audience is refused. It also requires the RFC 9068 `typ: at+jwt` (an ID token or any other JWT
 * signed with the same secret is not an access token), an `iat` no further in the future than
 * CLOCK_SKEW_SECONDS, and a lifetime (exp − iat) no longer than ACCESS_TOKEN_TTL_SECONDS: a token
 * minted with a leaked key for a year is refused even before it expires.
 */
const ALGORITHM = 'HS256';
const TOKEN_TYPE = 'at+jwt';
const CLOCK_SKEW_SECONDS = 30;

/**
 * The keys of the current secret, made once per process: jose signs with WebCrypto, and handed the
 * raw bytes or a KeyObject it imported an HMAC key again on every token it signed; verification
 * (hs256.ts) takes the KeyObject.
 */
let cachedKeys: { secret: string; signing: webcrypto.CryptoKey; verifying: KeyObject } | undefined;
function keys(): { signing: webcrypto.CryptoKey; verifying: KeyObject } {
  const secret = signingSecret();
  if (cachedKeys?.secret === secret) return cachedKeys;
  const verifying = createSecretKey(Buffer.from(secret, 'utf8'));
  cachedKeys = { secret, verifying, signing: verifying.toCryptoKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']) };
  return cachedKeys;
}

export async function issueAccessToken(
  client: Pick<ApiClientPrincipal, 'clientId' | 'usuarioId' | 'sistemaOrigem' | 'scopes'>,
): Promise<{ token: string; expiresIn: number }> {
  const { ACCESS_TOKEN_TTL_SECONDS, TOKEN_ISSUER, TOKEN_AUDIENCE } = env();
  const claims = { usuarioId: client.usuarioId, sistemaOrigem: client.sistemaOrigem, scope: client.scopes.join(' ') };
  // One reading of the clock for both: given "900s", jose reads it again for exp, and when a second
  // ticked in between, exp − iat came out one over the lifetime, which verification refuses. That
  // token was refused for its whole life, from its first use: a fresh token's 401, as CI once showed.
  const issuedAt = Math.floor(Date.now() / 1000);
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: ALGORITHM, typ: TOKEN_TYPE })
    .setSubject(client.clientId)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt(issuedAt)
    .setJti(crypto.randomUUID())
    .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_SECONDS)
    .sign(keys().signing);
  return { token, expiresIn: ACCESS_TOKEN_TTL_SECONDS };
}

/**
 * The client a token speaks for, or undefined when it is invalid, expired or not ours. The (not yet
 * verified) issuer picks the verifier: the embedded issuer's HS256 key, or the integration
 * platform's JWKS; each then verifies the issuer again along with everything else.
 */
export async function verifyAccessToken(token: string): Promise<ApiClientPrincipal | undefined> {
  const { TOKEN_ISSUER, AUTH_EMBEDDED_ISSUER, platformTokens } = env();
  // With one verifier there is nothing to pick, and it checks the issuer itself: no decoding twice.
  if (!platformTokens) return AUTH_EMBEDDED_ISSUER ? verifyEmbeddedToken(token) : undefined;
  const issuer = unverifiedIssuer(token);
  if (AUTH_EMBEDDED_ISSUER && issuer === TOKEN_ISSUER) return verifyEmbeddedToken(token);
  if (platformTokens && issuer === platformTokens.issuer) return verifyPlatformToken(token, platformTokens);
  return undefined;
}

function unverifiedIssuer(token: string): string | undefined {
  try {
    return decodeJwt(token).iss;
  } catch {
    return undefined;
  }
}

async function verifyEmbeddedToken(token: string): Promise<ApiClientPrincipal | undefined> {
  const { TOKEN_ISSUER, TOKEN_AUDIENCE, ACCESS_TOKEN_TTL_SECONDS } = env();
  const payload = verifyHs256(token, {
    key: keys().verifying,
    typ: TOKEN_TYPE,
    issuer: TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
    requiredClaims: ['exp', 'iat', 'sub'],
    // maxTokenAge also refuses an iat in the future beyond the tolerance.
    maxTokenAge: ACCESS_TOKEN_TTL_SECONDS + CLOCK_SKEW_SECONDS,
    clockToleranceSeconds: CLOCK_SKEW_SECONDS,
  });
  if (!payload) return undefined;
  if (payload.exp! - payload.iat! > ACCESS_TOKEN_TTL_SECONDS) return undefined;
  if (typeof payload.sub !== 'string' || typeof payload.usuarioId !== 'string' || typeof payload.sistemaOrigem !== 'number') {
    return undefined;
  }
  // A revoked client's tokens stop working (within the state cache's 30 s). Not inside a catch: a
  // database that cannot answer is the server's trouble (503), not a token the caller should drop.
  if (!(await clientIsActive(payload.sub))) return undefined;
  return {
    kind: 'api-client',
    issuer: 'embedded',
    clientId: payload.sub,
    usuarioId: payload.usuarioId,
    sistemaOrigem: payload.sistemaOrigem,
    // Tokens issued before scopes existed carry none: they keep what every client could do then.
    scopes: parseScopes(payload.scope),
  };
}
