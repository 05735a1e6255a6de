import 'server-only';
import type { Knex } from 'knex';
import { toBoolean, toNumber, type DbRow } from '@/lib/db/dialect';
import { rowReader, toOptionalNumber } from '@/lib/db/rows';

/**
 * The portal's links and sessions (portal_links, portal_sessions; migration 019). Tokens and
 * session cookies are looked up by their SHA-256 hash, never stored as they are.
 */
export type StoredPortalLink = {
  id: string;
  usuarioId: string;
  sistemaOrigem: number;
  readOnly: boolean;
  issuedBy: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  revokedAt: number | null;
};

export type StoredPortalSession = {
  id: string;
  linkId: string;
  usuarioId: string;
  sistemaOrigem: number;
  readOnly: boolean;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
};

const linkOf = rowReader<StoredPortalLink>({
  id: String,
  usuarioId: String,
  sistemaOrigem: toNumber,
  readOnly: toBoolean,
  issuedBy: String,
  createdAt: toNumber,
  expiresAt: toNumber,
  usedAt: toOptionalNumber,
  revokedAt: toOptionalNumber,
});

const sessionOf = rowReader<StoredPortalSession>({
  id: String,
  linkId: String,
  usuarioId: String,
  sistemaOrigem: toNumber,
  readOnly: toBoolean,
  createdAt: toNumber,
  expiresAt: toNumber,
  revokedAt: toOptionalNumber,
});

export async function insertPortalLink(db: Knex, link: Omit<StoredPortalLink, 'usedAt' | 'revokedAt'>, tokenHash: string): Promise<void> {
  await db('portal_links').insert({
    id: link.id,
    token_hash: tokenHash,
    usuario_id: link.usuarioId,
    sistema_origem: link.sistemaOrigem,
    read_only: link.readOnly,
    issued_by: link.issuedBy,
    created_at: link.createdAt,
    expires_at: link.expiresAt,
  });
}

/**
 * Marks the link of this token used, if it can still be opened (unused, unrevoked, unexpired), and
 * answers it; undefined otherwise. One conditional UPDATE: of two browsers opening the same link at
 * once, exactly one wins, on every database and across instances.
 */
export async function consumePortalLink(db: Knex, tokenHash: string, now: number): Promise<StoredPortalLink | undefined> {
  const claimed = await db('portal_links')
    .where({ token_hash: tokenHash })
    .whereNull('used_at')
    .whereNull('revoked_at')
    .where('expires_at', '>', now)
    .update({ used_at: now });
  if (claimed !== 1) return undefined;
  const [row] = await db('portal_links').where({ token_hash: tokenHash }).select<DbRow[]>('*');
  return row ? linkOf(row) : undefined;
}

export async function insertPortalSession(db: Knex, session: Omit<StoredPortalSession, 'revokedAt'>, sessionHash: string): Promise<void> {
  await db('portal_sessions').insert({
    id: session.id,
    session_hash: sessionHash,
    link_id: session.linkId,
    usuario_id: session.usuarioId,
    sistema_origem: session.sistemaOrigem,
    read_only: session.readOnly,
    created_at: session.createdAt,
    expires_at: session.expiresAt,
  });
}

/** The session of this cookie while it lasts (unrevoked, unexpired). */
export async function findLivePortalSession(db: Knex, sessionHash: string, now: number): Promise<StoredPortalSession | undefined> {
  const [row] = await db('portal_sessions')
    .where({ session_hash: sessionHash })
    .whereNull('revoked_at')
    .where('expires_at', '>', now)
    .select<DbRow[]>('*');
  return row ? sessionOf(row) : undefined;
}

/** A tenant's links that can still be opened and sessions still live, newest first. */
export async function livePortalAccess(
  db: Knex,
  usuarioId: string,
  now: number,
): Promise<{ links: StoredPortalLink[]; sessions: StoredPortalSession[] }> {
  const links = await db('portal_links')
    .where({ usuario_id: usuarioId })
    .whereNull('used_at')
    .whereNull('revoked_at')
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(200)
    .select<DbRow[]>('*');
  const sessions = await db('portal_sessions')
    .where({ usuario_id: usuarioId })
    .whereNull('revoked_at')
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(200)
    .select<DbRow[]>('*');
  return { links: links.map(linkOf), sessions: sessions.map(sessionOf) };
}

export async function findPortalLink(db: Knex, id: string): Promise<StoredPortalLink | undefined> {
  const [row] = await db('portal_links').where({ id }).select<DbRow[]>('*');
  return row ? linkOf(row) : undefined;
}

export async function findPortalSession(db: Knex, id: string): Promise<StoredPortalSession | undefined> {
  const [row] = await db('portal_sessions').where({ id }).select<DbRow[]>('*');
  return row ? sessionOf(row) : undefined;
}

export async function revokePortalLinkRow(db: Knex, id: string, now: number): Promise<void> {
  await db('portal_links').where({ id }).whereNull('revoked_at').update({ revoked_at: now });
}

export async function revokePortalSessionRow(db: Knex, id: string, now: number): Promise<void> {
  await db('portal_sessions').where({ id }).whereNull('revoked_at').update({ revoked_at: now });
}

/**
 * Deletes links and sessions whose end of life is older than `before` (retention): nothing can be
 * opened or done with them, and the audit trail keeps what happened. Answers how many.
 */
export async function prunePortalRows(db: Knex, before: number): Promise<number> {
  const links = await db('portal_links').where('expires_at', '<', before).delete();
  const sessions = await db('portal_sessions').where('expires_at', '<', before).delete();
  return links + sessions;
}
