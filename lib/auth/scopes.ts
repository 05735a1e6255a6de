/**
 * OAuth 2.0 scopes (RFC 6749 §3.3) an API client may hold. No server imports: contracts and the
 * console name them too.
 */
export const SCOPES = {
  webhooks: 'webhooks',
  scheduling: 'scheduling',
  publishEvents: 'eventos:publicar',
} as const;

export const KNOWN_SCOPES: readonly string[] = Object.values(SCOPES);

/** Scopes a client has when its record or token says none: what every client could do before scopes existed. */
export const DEFAULT_SCOPES: readonly string[] = [SCOPES.webhooks, SCOPES.scheduling];

/** A space-separated scope value as a list; undefined (no claim) gives the default. */
export function parseScopes(value: unknown): readonly string[] {
  if (Array.isArray(value)) return value.filter((scope): scope is string => typeof scope === 'string');
  if (typeof value === 'string') return value.split(' ').filter(Boolean);
  return DEFAULT_SCOPES;
}
