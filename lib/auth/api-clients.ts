import 'server-only';
import { getDb } from '@/lib/data';
import { toNumber, type DbRow } from '@/lib/db/dialect';
import { verifyClientSecret } from './client-secrets';
import type { ApiClientPrincipal } from './principal';
import { parseScopes } from './scopes';

/**
 * Checks client credentials; unknown clients take the same (short) time as known ones. A revoked
 * client is refused; after a rotation the previous secret works until its overlap ends. Each
 * success records when the client last obtained a token (the admin list shows it).
 */
export async function authenticateApiClient(clientId: string, clientSecret: string): Promise<ApiClientPrincipal | undefined> {
  const db = await getDb();
  const now = Date.now();
  const row = (await db('api_clients').where({ client_id: clientId }).first()) as DbRow | undefined;
  const check = await verifyClientSecret(clientSecret, row ? String(row.secret_hash) : undefined);
  const previousValid =
    !check.valid &&
    typeof row?.previous_secret_hash === 'string' &&
    toNumber(row.previous_secret_until) > now &&
    (await verifyClientSecret(clientSecret, row.previous_secret_hash)).valid;
  if (!row || !(check.valid || previousValid) || (row.revoked_at !== null && row.revoked_at !== undefined)) return undefined;
  await db('api_clients')
    .where({ client_id: clientId })
    .update({ last_token_at: now, ...(check.rehash ? { secret_hash: check.rehash } : {}) });
  return {
    kind: 'api-client',
    issuer: 'embedded',
    clientId: String(row.client_id),
    usuarioId: String(row.usuario_id),
    sistemaOrigem: toNumber(row.sistema_origem),
    scopes: parseScopes(row.scopes),
  };
}
