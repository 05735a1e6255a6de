import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * Verification of our own HS256 access tokens (compact JWS, RFC 7515 and 7519) with node:crypto's
 * HMAC, run synchronously. jose verifies through WebCrypto, whose job machinery cost about 70 µs of
 * CPU per token on these machines against about 6 µs here: a fifth of an API request's CPU, paid on
 * every request. Signing stays with jose (once per token issued), and so do the integration
 * platform's asymmetric tokens (lib/auth/platform-tokens.ts).
 *
 * The checks and their order are jose's jwtVerify with the options access-tokens.ts used to give it
 * (hs256.test.ts holds the two to the same answer on each case): the header first (alg pinned,
 * typ, no `crit` extension we would have to understand), then the signature, compared in constant
 * time before the payload is even decoded, then the claims with a clock tolerance.
 */
export type Hs256Expectations = {
  key: KeyObject;
  /** The header's `typ`, compared as jose does: case-insensitively, `application/` optional. */
  typ: string;
  issuer: string;
  audience: string;
  /** Claims that must be present: exp, iat and sub for our access tokens. */
  requiredClaims: readonly ('exp' | 'iat' | 'sub')[];
  /** Seconds since iat after which the token is refused, whatever its exp. */
  maxTokenAge: number;
  clockToleranceSeconds: number;
};

export type Hs256Payload = Record<string, unknown> & { exp?: number; iat?: number };

/** The token's payload when every check passes, otherwise undefined (the reason is not the caller's business). */
export function verifyHs256(token: string, expected: Hs256Expectations, nowMs = Date.now()): Hs256Payload | undefined {
  const firstDot = token.indexOf('.');
  const secondDot = token.indexOf('.', firstDot + 1);
  if (firstDot <= 0 || secondDot <= firstDot + 1 || token.indexOf('.', secondDot + 1) !== -1) return undefined;

  const header = jsonObject(token.slice(0, firstDot));
  if (!header || header.alg !== 'HS256' || 'crit' in header || 'b64' in header) return undefined;
  if (typeof header.typ !== 'string' || normalizedTyp(header.typ) !== normalizedTyp(expected.typ)) return undefined;

  const signature = base64url(token.slice(secondDot + 1));
  const mac = createHmac('sha256', expected.key).update(token.slice(0, secondDot)).digest();
  if (!signature || signature.length !== mac.length || !timingSafeEqual(signature, mac)) return undefined;

  const payload = jsonObject(token.slice(firstDot + 1, secondDot));
  return payload && claimsHold(payload, expected, Math.floor(nowMs / 1000)) ? payload : undefined;
}

/** The registered claims (RFC 7519 §4.1) we rely on, checked as jose's validateClaimsSet checks them. */
function claimsHold(payload: Record<string, unknown>, expected: Hs256Expectations, now: number): boolean {
  const tolerance = expected.clockToleranceSeconds;
  for (const claim of expected.requiredClaims) if (payload[claim] === undefined) return false;
  if (payload.iss !== expected.issuer) return false;
  const audience = payload.aud;
  if (Array.isArray(audience) ? !audience.includes(expected.audience) : audience !== expected.audience) return false;
  for (const claim of ['exp', 'iat', 'nbf'] as const) {
    if (payload[claim] !== undefined && !isNumericDate(payload[claim])) return false;
  }
  const { exp, iat, nbf } = payload as { exp?: number; iat?: number; nbf?: number };
  if (nbf !== undefined && nbf > now + tolerance) return false;
  if (exp !== undefined && exp <= now - tolerance) return false;
  if (iat === undefined) return false; // maxTokenAge needs it, as jose requires it then
  if (now - iat - tolerance > expected.maxTokenAge) return false;
  if (iat - tolerance > now) return false; // issued in the future
  return true;
}

function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function normalizedTyp(typ: string): string {
  const lower = typ.toLowerCase();
  return lower.startsWith('application/') ? lower.slice('application/'.length) : lower;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;
/** Refuses bytes that are not UTF-8, as jose does, instead of reading them as U+FFFD. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes of a base64url segment without padding, or undefined when it is not one. */
function base64url(segment: string): Buffer | undefined {
  // Buffer's decoder skips what it does not understand; a JWS segment must be strict base64url.
  if (!BASE64URL.test(segment) || segment.length % 4 === 1) return undefined;
  return Buffer.from(segment, 'base64url');
}

/** A segment holding a JSON object (a header or a claims set); anything else is undefined. */
function jsonObject(segment: string): Record<string, unknown> | undefined {
  const bytes = base64url(segment);
  if (!bytes) return undefined;
  try {
    const value: unknown = JSON.parse(UTF8.decode(bytes));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
