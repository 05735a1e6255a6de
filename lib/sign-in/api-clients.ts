import 'server-only';
import { getDb } from '@/lib/db/handle';
import { findApiClient, recordTokenIssued } from '@/lib/api-clients/store';
import { verifyClientSecret } from '@/lib/auth/client-secrets';
import type { ApiClientPrincipal } from '@/lib/auth/principal';
import { parseScopes } from '@/lib/auth/scopes';

/**
 * Checks client credentials; unknown clients take the same (short) time as known ones. A revoked
 * client is refused; after a rotation the previous secret works until its overlap ends. Each
 * success records when the client last obtained a token (the admin list shows it).
 */
export async function authenticateApiClient(clientId: string, clientSecret: string): Promise<ApiClientPrincipal | undefined> {
  const db = await getDb();
  const now = Date.now();
  const row = await findApiClient(db, clientId);
  const check = await verifyClientSecret(clientSecret, row?.secretHash);
  const previousValid =
    !check.valid &&
    row !== undefined &&
    row.previousSecretHash !== null &&
    (row.previousSecretUntil ?? 0) > now &&
    (await verifyClientSecret(clientSecret, row.previousSecretHash)).valid;
  if (!row || !(check.valid || previousValid) || row.revokedAt !== null) return undefined;
  await recordTokenIssued(db, clientId, now, check.rehash);
  return {
    kind: 'api-client',
    issuer: 'embedded',
    clientId: row.clientId,
    usuarioId: row.usuarioId,
    sistemaOrigem: row.sistemaOrigem,
    scopes: parseScopes(row.scopes),
  };
}
