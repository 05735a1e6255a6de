import 'server-only';
import { getDb } from '@/lib/data';
import { toNumber, type DbRow } from '@/lib/db/dialect';
import { decoySecretHash, verifySecret } from './passwords';
import type { ApiClientPrincipal } from './principal';

/** Checks client credentials; unknown clients cost the same scrypt time as known ones. */
export async function authenticateApiClient(clientId: string, clientSecret: string): Promise<ApiClientPrincipal | undefined> {
  const db = await getDb();
  const row = (await db('api_clients').where({ client_id: clientId }).first()) as DbRow | undefined;
  const valid = await verifySecret(clientSecret, row ? String(row.secret_hash) : await decoySecretHash());
  if (!row || !valid) return undefined;
  return {
    kind: 'api-client',
    issuer: 'embedded',
    clientId: String(row.client_id),
    usuarioId: String(row.usuario_id),
    sistemaOrigem: toNumber(row.sistema_origem),
  };
}
