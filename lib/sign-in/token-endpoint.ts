import 'server-only';
import { env } from '@/lib/config/env';
import { readBodyText } from '@/lib/http/body';
import { hasControlCharacters } from '@/lib/validation/text';
import { refuse } from '@/lib/errors/refusal';
import { authenticateApiClient } from '@/lib/sign-in/api-clients';
import { issueAccessToken } from '@/lib/auth/access-tokens';
import { clientAddress } from '@/lib/http/client-address';
import { log } from '@/lib/log';
import { countAttempt, settleSuccess, tokenCounters } from '@/lib/auth/login-throttle';
import { metrics } from '@/lib/observability/metrics';
import type { OAuthError, TokenResponse } from '@/lib/auth/token-contract';

/**
 * OAuth 2.0 client credentials grant (RFC 6749 §4.4) for API clients. Credentials come in HTTP
 * Basic or in the form body (§2.3.1); errors use the RFC's own JSON body (§5.2), not problem+json,
 * because OAuth client libraries parse that shape.
 *
 * Attempts are throttled per client_id + address and per address before the secret is checked
 * (throttle-policy.ts); a client's own address keeps working while another hammers its client_id.
 * A throttled attempt gets 429 with Retry-After and, since RFC 6749 defines no throttling error,
 * the §5.2 body of a failed client authentication, `invalid_client`, so OAuth libraries still read
 * it as "credentials not accepted". Refusals are logged with the client_id and address only.
 */
/** RFC 6749 §5.1: token answers, errors included, are never cached. */
const NEVER_CACHED = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** What the token endpoint answers: a token, or the RFC's error body (the operation declares both, lib/api/operations/platform.ts). */
export type TokenAnswer =
  | { status: 200; body: TokenResponse; headers: Record<string, string> }
  | { status: 400 | 401 | 429; body: OAuthError; headers: Record<string, string> };

function oauthError(
  status: 400 | 401 | 429,
  error: OAuthError['error'],
  description: string,
  headers: Record<string, string> = {},
): TokenAnswer {
  return { status, body: { error, error_description: description }, headers: { ...NEVER_CACHED, ...headers } };
}

function basicCredentials(request: Request): { clientId: string; clientSecret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator === -1) return undefined;
  // RFC 6749 §2.3.1: both parts are form-urlencoded before Basic encoding.
  const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
  try {
    return { clientId: decode(decoded.slice(0, separator)), clientSecret: decode(decoded.slice(separator + 1)) };
  } catch {
    return undefined;
  }
}

async function formParams(request: Request): Promise<URLSearchParams | undefined> {
  const text = await readBodyText(request, env().MAX_BODY_BYTES);
  const mediaType = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (mediaType === 'application/x-www-form-urlencoded') return new URLSearchParams(text);
  if (mediaType === 'application/json') {
    try {
      const json = JSON.parse(text) as unknown;
      if (json && typeof json === 'object' && !Array.isArray(json)) {
        return new URLSearchParams(Object.entries(json).filter(([, v]) => typeof v === 'string') as [string, string][]);
      }
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export async function handleTokenRequest(request: Request): Promise<TokenAnswer> {
  // With the embedded issuer switched off, tokens come from the integration platform only.
  if (!env().AUTH_EMBEDDED_ISSUER) throw refuse.notFound('This server issues no tokens: use the integration platform’s access token.');
  const params = await formParams(request);
  if (!params) return oauthError(400, 'invalid_request', 'Send grant_type=client_credentials as application/x-www-form-urlencoded.');
  // RFC 6749 §3.2: parameters must not be repeated; and no credential holds a control character.
  const names = [...params.keys()];
  if (new Set(names).size !== names.length) return oauthError(400, 'invalid_request', 'A parameter is repeated.');
  if ([...params.values()].some(hasControlCharacters)) return oauthError(400, 'invalid_request', 'A parameter has control characters.');
  const grantType = params.get('grant_type');
  if (!grantType) return oauthError(400, 'invalid_request', 'grant_type is required.');
  if (grantType !== 'client_credentials') return oauthError(400, 'unsupported_grant_type', 'Only client_credentials is supported.');

  const basic = basicCredentials(request);
  const clientId = basic?.clientId ?? params.get('client_id');
  const clientSecret = basic?.clientSecret ?? params.get('client_secret');
  const challenge = basic ? { 'WWW-Authenticate': 'Basic realm="integration-api"' } : undefined;
  if (!clientId || !clientSecret) {
    metrics().authRefusals.inc({ reason: 'invalid_client' });
    return oauthError(401, 'invalid_client', 'Client authentication failed.', challenge);
  }

  const caller = { clientId: clientId.slice(0, 200), address: clientAddress(request.headers) };
  const counters = tokenCounters(caller.clientId, caller.address);
  const attempt = await countAttempt(counters);
  if (!attempt.allowed) {
    metrics().throttled.inc({ endpoint: 'token' });
    log.warn('auth.token_throttled', { ...caller, retryAfterSeconds: attempt.retryAfterSeconds });
    return oauthError(429, 'invalid_client', 'Too many failed attempts; retry later.', {
      'Retry-After': String(attempt.retryAfterSeconds),
    });
  }
  const client = await authenticateApiClient(caller.clientId, clientSecret.slice(0, 500));
  if (!client) {
    metrics().authRefusals.inc({ reason: 'invalid_client' });
    log.info('auth.token_refused', caller);
    return oauthError(401, 'invalid_client', 'Client authentication failed.', challenge);
  }
  await settleSuccess(counters);

  // RFC 6749 §3.3: the client asks for some of its scopes, or gets all of them.
  const requested = params.get('scope');
  const scopes = requested === null ? client.scopes : [...new Set(requested.split(' ').filter(Boolean))];
  if (scopes.length === 0 || scopes.some((scope) => !client.scopes.includes(scope))) {
    return oauthError(400, 'invalid_scope', `Scopes allowed for this client: ${client.scopes.join(' ')}.`);
  }
  const { token, expiresIn } = await issueAccessToken({ ...client, scopes });
  return {
    status: 200,
    body: { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: scopes.join(' ') },
    headers: NEVER_CACHED,
  };
}
