import 'server-only';
import { env } from '@/lib/config/env';
import { getDb } from '@/lib/db/handle';
import { isUniqueViolation } from '@/lib/db/dialect';
import { recordAudit } from '@/lib/audit/store';
import { generateClientSecret, hashClientSecret } from '@/lib/auth/client-secrets';
import { forgetClientState } from '@/lib/auth/client-state';
import type { Principal } from '@/lib/auth/principal';
import { parseScopes } from '@/lib/auth/scopes';
import { refuse } from '@/lib/errors/refusal';
import type { ApiClientCreate, ApiClientView, ApiClientWithSecret } from './contract';
import {
  findApiClient,
  insertApiClient,
  listApiClientRows,
  markRevoked,
  replaceSecret,
  tenantClientName,
  type ApiClientRow,
} from '@/lib/api-clients/store';

/**
 * API clients for admins: list, create (the secret shown once), rotate (the previous secret keeps
 * working for CLIENT_SECRET_OVERLAP_HOURS) and revoke (its tokens stop within a minute: see
 * lib/auth/client-state.ts). Every change is audited, never with a secret.
 */
const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

function viewOf(row: Omit<ApiClientRow, 'secretHash' | 'previousSecretHash' | 'previousSecretUntil'>): ApiClientView {
  return {
    clientId: row.clientId,
    nome: row.name,
    usuarioId: row.usuarioId,
    sistemaOrigem: row.sistemaOrigem,
    escopos: [...parseScopes(row.scopes)],
    criadoEm: iso(row.createdAt)!,
    revogadoEm: iso(row.revokedAt),
    ultimoTokenEm: iso(row.lastTokenAt),
  };
}

/** A tenant's readable name, its API client's (the partner portal's header); undefined when it has none. */
export async function tenantName(usuarioId: string, sistemaOrigem: number): Promise<string | undefined> {
  return tenantClientName(await getDb(), usuarioId, sistemaOrigem);
}

export async function listApiClients(): Promise<ApiClientView[]> {
  return (await listApiClientRows(await getDb())).map(viewOf);
}

async function findRow(clientId: string): Promise<ApiClientRow> {
  const row = await findApiClient(await getDb(), clientId);
  if (!row) throw refuse.notFound('API client not found.');
  return row;
}

export async function createApiClient(principal: Principal, input: ApiClientCreate): Promise<ApiClientWithSecret> {
  const clientSecret = generateClientSecret();
  const now = Date.now();
  const client = {
    clientId: input.clientId,
    secretHash: hashClientSecret(clientSecret),
    name: input.nome,
    usuarioId: input.usuarioId,
    sistemaOrigem: input.sistemaOrigem,
    scopes: input.escopos.join(' '),
    createdAt: now,
  };
  const db = await getDb();
  try {
    await db.transaction(async (trx) => {
      await insertApiClient(trx, client);
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
  return { ...viewOf({ ...client, revokedAt: null, lastTokenAt: null }), clientSecret };
}

export async function rotateApiClientSecret(principal: Principal, clientId: string): Promise<ApiClientWithSecret> {
  const current = await findRow(clientId);
  if (current.revokedAt !== null) throw refuse.conflict('client-revoked', 'The client is revoked.');
  const clientSecret = generateClientSecret();
  const db = await getDb();
  await db.transaction(async (trx) => {
    const overlapEnds = Date.now() + env().CLIENT_SECRET_OVERLAP_HOURS * 3_600_000;
    await replaceSecret(trx, clientId, hashClientSecret(clientSecret), current.secretHash, overlapEnds);
    await recordAudit(trx, { principal, action: 'client.rotate', target: `client:${clientId}`, outcome: 'rotated', httpStatus: 200 });
  });
  return { ...viewOf(current), clientSecret };
}

export async function revokeApiClient(principal: Principal, clientId: string): Promise<ApiClientView> {
  await findRow(clientId);
  const db = await getDb();
  await db.transaction(async (trx) => {
    await markRevoked(trx, clientId, Date.now());
    await recordAudit(trx, { principal, action: 'client.revoke', target: `client:${clientId}`, outcome: 'revoked', httpStatus: 200 });
  });
  forgetClientState(clientId);
  return viewOf(await findRow(clientId));
}
