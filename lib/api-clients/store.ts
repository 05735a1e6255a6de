import 'server-only';
import { toNumber, type DbRow } from '@/lib/db/dialect';
import { rowReader, toOptionalNumber, toOptionalText, type Db } from '@/lib/db/rows';

/**
 * The one module that reads and writes `api_clients`: the admin screens (lib/api-clients/service.ts),
 * the token endpoint's credential check and the revocation check on every embedded token
 * (lib/auth) all go through it. Scopes come back as stored (a space-separated list).
 */
const TABLE = 'api_clients';

export type ApiClientRow = {
  clientId: string;
  name: string;
  usuarioId: string;
  sistemaOrigem: number;
  /** As stored; null for a client older than scopes (parseScopes gives it the defaults). */
  scopes: string | null;
  secretHash: string;
  previousSecretHash: string | null;
  previousSecretUntil: number | null;
  createdAt: number;
  revokedAt: number | null;
  lastTokenAt: number | null;
};

const fromRow = rowReader<ApiClientRow>({
  clientId: String,
  name: String,
  usuarioId: String,
  sistemaOrigem: toNumber,
  scopes: toOptionalText,
  secretHash: String,
  previousSecretHash: toOptionalText,
  previousSecretUntil: toOptionalNumber,
  createdAt: toNumber,
  revokedAt: toOptionalNumber,
  lastTokenAt: toOptionalNumber,
});

export async function findApiClient(db: Db, clientId: string): Promise<ApiClientRow | undefined> {
  const row = (await db(TABLE).where({ client_id: clientId }).first()) as DbRow | undefined;
  return row ? fromRow(row) : undefined;
}

export async function listApiClientRows(db: Db): Promise<ApiClientRow[]> {
  return ((await db(TABLE).orderBy('client_id').select('*')) as DbRow[]).map(fromRow);
}

/** The name of the tenant's API client (an active one first, then the oldest): how the partner portal names the tenant. */
export async function tenantClientName(db: Db, usuarioId: string, sistemaOrigem: number): Promise<string | undefined> {
  const row = (await db(TABLE)
    .where({ usuario_id: usuarioId, sistema_origem: sistemaOrigem })
    .orderByRaw('CASE WHEN revoked_at IS NULL THEN 0 ELSE 1 END')
    .orderBy('created_at')
    .first()) as DbRow | undefined;
  return typeof row?.name === 'string' ? row.name : undefined;
}

export type NewApiClient = Pick<ApiClientRow, 'clientId' | 'name' | 'usuarioId' | 'sistemaOrigem' | 'secretHash' | 'createdAt'> & {
  scopes: string;
};

export async function insertApiClient(db: Db, client: NewApiClient): Promise<void> {
  await db(TABLE).insert({
    client_id: client.clientId,
    secret_hash: client.secretHash,
    name: client.name,
    usuario_id: client.usuarioId,
    sistema_origem: client.sistemaOrigem,
    scopes: client.scopes,
    created_at: client.createdAt,
  });
}

/** A successful token request: when it happened, and the secret's hash again where its scheme was upgraded. */
export async function recordTokenIssued(db: Db, clientId: string, at: number, rehash?: string): Promise<void> {
  await db(TABLE)
    .where({ client_id: clientId })
    .update({ last_token_at: at, ...(rehash ? { secret_hash: rehash } : {}) });
}

/** A new secret; the previous one keeps working until `previousUntil`. */
export async function replaceSecret(db: Db, clientId: string, secretHash: string, previousSecretHash: string, previousUntil: number) {
  await db(TABLE)
    .where({ client_id: clientId })
    .update({ secret_hash: secretHash, previous_secret_hash: previousSecretHash, previous_secret_until: previousUntil });
}

/** Revokes a client once (a second revocation keeps the first one's time); its previous secret stops too. */
export async function markRevoked(db: Db, clientId: string, at: number): Promise<void> {
  await db(TABLE).where({ client_id: clientId }).whereNull('revoked_at').update({ revoked_at: at, previous_secret_hash: null });
}
