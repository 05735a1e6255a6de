import 'server-only';
import { env } from '@/lib/config/env';
import { getDb } from '@/lib/data';
import { isUniqueViolation, toNumber, type DbRow } from '@/lib/db/dialect';
import { recordAudit } from '@/lib/audit/audit-trail';
import { generateClientSecret, hashClientSecret } from '@/lib/auth/client-secrets';
import { forgetClientState } from '@/lib/auth/client-state';
import type { Principal } from '@/lib/auth/principal';
import { parseScopes } from '@/lib/auth/scopes';
import { refuse } from '@/lib/errors/refusal';
import type { ApiClientCreate, ApiClientView, ApiClientWithSecret } from './contract';

/**
 * API clients for admins: list, create (the secret shown once), rotate (the previous secret keeps
 * working for CLIENT_SECRET_OVERLAP_HOURS) and revoke (its tokens stop within a minute: see
 * lib/auth/client-state.ts). Every change is audited, never with a secret.
 */
const TABLE = 'api_clients';

function iso(value: unknown): string | null {
  return value === null || value === undefined ? null : new Date(toNumber(value)).toISOString();
}

function viewOf(row: DbRow): ApiClientView {
  return {
    clientId: String(row.client_id),
    name: String(row.name),
    usuarioId: String(row.usuario_id),
    sistemaOrigem: toNumber(row.sistema_origem),
    scopes: [...parseScopes(row.scopes)],
    criadoEm: iso(row.created_at)!,
    revogadoEm: iso(row.revoked_at),
    ultimoTokenEm: iso(row.last_token_at),
  };
}

export async function listApiClients(): Promise<ApiClientView[]> {
  const db = await getDb();
  const rows = (await db(TABLE).orderBy('client_id').select('*')) as DbRow[];
  return rows.map(viewOf);
}

async function findRow(clientId: string): Promise<DbRow> {
  const db = await getDb();
  const rows = (await db(TABLE).where({ client_id: clientId }).select('*')) as DbRow[];
  if (!rows[0]) throw refuse.notFound('API client not found.');
  return rows[0];
}

export async function createApiClient(principal: Principal, input: ApiClientCreate): Promise<ApiClientWithSecret> {
  const clientSecret = generateClientSecret();
  const now = Date.now();
  const row = {
    client_id: input.clientId,
    secret_hash: hashClientSecret(clientSecret),
    name: input.name,
    usuario_id: input.usuarioId,
    sistema_origem: input.sistemaOrigem,
    scopes: input.scopes.join(' '),
    created_at: now,
  };
  const db = await getDb();
  try {
    await db.transaction(async (trx) => {
      await trx(TABLE).insert(row);
      await recordAudit(trx, {
        principal,
        action: 'client.create',
        target: `client:${input.clientId}`,
        outcome: 'created',
        httpStatus: 201,
        after: { ...input },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse.conflict('client-exists', `An API client ${input.clientId} exists already.`);
    throw error;
  }
  return { ...viewOf(row), clientSecret };
}

export async function rotateApiClientSecret(principal: Principal, clientId: string): Promise<ApiClientWithSecret> {
  const current = await findRow(clientId);
  if (current.revoked_at !== null && current.revoked_at !== undefined) throw refuse.conflict('client-revoked', 'The client is revoked.');
  const clientSecret = generateClientSecret();
  const db = await getDb();
  await db.transaction(async (trx) => {
    await trx(TABLE)
      .where({ client_id: clientId })
      .update({
        secret_hash: hashClientSecret(clientSecret),
        previous_secret_hash: current.secret_hash,
        previous_secret_until: Date.now() + env().CLIENT_SECRET_OVERLAP_HOURS * 3_600_000,
      });
    await recordAudit(trx, { principal, action: 'client.rotate', target: `client:${clientId}`, outcome: 'rotated', httpStatus: 200 });
  });
  return { ...viewOf(current), clientSecret };
}

export async function revokeApiClient(principal: Principal, clientId: string): Promise<ApiClientView> {
  await findRow(clientId);
  const db = await getDb();
  await db.transaction(async (trx) => {
    await trx(TABLE).where({ client_id: clientId }).whereNull('revoked_at').update({ revoked_at: Date.now(), previous_secret_hash: null });
    await recordAudit(trx, { principal, action: 'client.revoke', target: `client:${clientId}`, outcome: 'revoked', httpStatus: 200 });
  });
  forgetClientState(clientId);
  return viewOf(await findRow(clientId));
}
