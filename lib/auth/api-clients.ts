import 'server-only';
import { getDb } from '@/lib/data';
import { toNumber, type DbRow } from '@/lib/db/dialect';
import { verifyClientSecret } from './client-secrets';
import type { ApiClientPrincipal } from './principal';
import { parseScopes } from './scopes';

/** Checks client credentials; unknown clients take the same (short) time as known ones. */
export async function authenticateApiClient(clientId: string, clientSecret: string): Promise<ApiClientPrincipal | undefined> {
  const db = await getDb();
  const row = (await db('api_clients').where({ client_id: clientId }).first()) as DbRow | undefined;
  const check = await verifyClientSecret(clientSecret, row ? String(row.secret_hash) : undefined);
  if (!row || !check.valid) return undefined;
  if (check.rehash) await db('api_clients').where({ client_id: clientId }).update({ secret_hash: check.rehash });
  return {
    kind: 'api-client',
    issuer: 'embedded',
    clientId: String(row.client_id),
    usuarioId: String(row.usuario_id),
    sistemaOrigem: toNumber(row.sistema_origem),
    scopes: parseScopes(row.scopes),
  };
}
