import 'server-only';
import { getDb } from '@/lib/db';
import { toNumber } from '@/lib/db/dialect';
import { decoySecretHash, verifySecret } from './passwords';
import type { ApiClientPrincipal } from './principal';

/** Checks client credentials; unknown clients cost the same scrypt time as known ones. */
export async function authenticateApiClient(clientId: string, clientSecret: string): Promise<ApiClientPrincipal | undefined> {
  const db = await getDb();
  const row = await db('api_clients').where({ client_id: clientId }).first();
  const valid = await verifySecret(clientSecret, row?.secret_hash ?? (await decoySecretHash()));
  if (!row || !valid) return undefined;
  return {
    kind: 'api-client',
    issuer: 'embedded',
    clientId: row.client_id,
    usuarioId: row.usuario_id,
    sistemaOrigem: toNumber(row.sistema_origem),
  };
}
