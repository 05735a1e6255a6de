import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { getDb } from '@/lib/db/handle';
import { env } from '@/lib/config/env';
import { recordAudit } from '@/lib/audit/store';
import { actorId, isPortalSession, type ApiClientPrincipal, type Principal } from '@/lib/auth/principal';
import { SCOPES } from '@/lib/auth/scopes';
import { refuse } from '@/lib/errors/refusal';
import { FieldRejected } from '@/lib/validation/field-rejected';
import { OPERATOR_TENANT } from '@/lib/webhooks/events/operational';
import type { PortalAccess, PortalLink, PortalLinkCreate, PortalSessionView } from './contract';
import { PORTAL_PATH } from './cookie';
import {
  consumePortalLink,
  findLivePortalSession,
  findPortalLink,
  findPortalSession,
  insertPortalLink,
  insertPortalSession,
  livePortalAccess,
  revokePortalLinkRow,
  revokePortalSessionRow,
  type StoredPortalSession,
} from './store';

/**
 * The partner portal (issue 30): single-use links into a tenant's own webhooks, and the sessions
 * they open. A session is an API client of its tenant with the `webhooks` scope alone (issuer
 * `portal`), so every operation scopes it exactly as it scopes that tenant's API clients. Every
 * issue, opening, revocation and change is in the audit trail under the actor `portal:<usuarioId>`.
 */

/** The audit trail's actor for everything about a tenant's portal. */
export function portalActorId(usuarioId: string): string {
  return `portal:${usuarioId}`;
}

function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** 32 random bytes as 43 base64url characters: a link's token, or a session's cookie. */
function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The principal a portal session acts as: its tenant's API client with the webhooks scope, nothing more. */
function principalOf(tenant: { usuarioId: string; sistemaOrigem: number }, session?: StoredPortalSession): ApiClientPrincipal {
  return {
    kind: 'api-client',
    issuer: 'portal',
    clientId: portalActorId(tenant.usuarioId),
    usuarioId: tenant.usuarioId,
    sistemaOrigem: tenant.sistemaOrigem,
    scopes: [SCOPES.webhooks],
    ...(session ? { portal: { sessionId: session.id, readOnly: session.readOnly } } : {}),
  };
}

/** Staff with the webhooks role name the tenant; an API client issues for its own; a portal session never issues. */
function tenantFor(principal: Principal, input: { usuarioId?: string; sistemaOrigem?: number }) {
  if (isPortalSession(principal)) throw refuse.forbidden('A portal session cannot issue portal links.');
  if (principal.kind === 'api-client') {
    const own = principal.usuarioId.toLowerCase();
    if (
      (input.usuarioId !== undefined && input.usuarioId !== own) ||
      (input.sistemaOrigem !== undefined && input.sistemaOrigem !== principal.sistemaOrigem)
    )
      throw refuse.forbidden('An API client issues portal links for its own usuarioId and sistemaOrigem only.');
    return { usuarioId: own, sistemaOrigem: principal.sistemaOrigem };
  }
  if (input.usuarioId === undefined) throw new FieldRejected('usuarioId', 'required', 'usuarioId is required.');
  if (input.sistemaOrigem === undefined) throw new FieldRejected('sistemaOrigem', 'required', 'sistemaOrigem is required.');
  // The operator's receiver (operational notifications) is staff's, with no partner to open it to.
  if (input.usuarioId === OPERATOR_TENANT) throw refuse.forbidden('The operator’s tenant has no partner portal.');
  return { usuarioId: input.usuarioId, sistemaOrigem: input.sistemaOrigem };
}

/** The tenant whose portal access the caller may see and revoke: staff name it, an API client its own. */
function tenantToManage(principal: Principal, usuarioId: string | undefined): string | undefined {
  if (isPortalSession(principal)) throw refuse.forbidden('A portal session cannot manage portal access.');
  if (principal.kind === 'api-client') return principal.usuarioId.toLowerCase();
  return usuarioId;
}

/**
 * A new single-use link: the token is answered once, in the URL's fragment, and only its hash is
 * kept. `origin` is where the link points (the console's public URL).
 */
export async function issuePortalLink(principal: Principal, input: PortalLinkCreate, origin: string): Promise<PortalLink> {
  const tenant = tenantFor(principal, input);
  const token = newSecret();
  const now = Date.now();
  const link = {
    id: crypto.randomUUID(),
    ...tenant,
    readOnly: input.somenteLeitura,
    issuedBy: actorId(principal),
    createdAt: now,
    expiresAt: now + env().PORTAL_LINK_MINUTES * 60_000,
  };
  const db = await getDb();
  const expiraEm = new Date(link.expiresAt).toISOString();
  await db.transaction(async (trx) => {
    await insertPortalLink(trx, link, hashOf(token));
    await recordAudit(trx, {
      principal: principalOf(tenant),
      action: 'portal.link_issue',
      target: `portal-link:${link.id}`,
      outcome: 'issued',
      httpStatus: 201,
      after: { emitidoPor: link.issuedBy, somenteLeitura: link.readOnly, expiraEm },
    });
  });
  return {
    id: link.id,
    url: portalEntryUrl(origin, token),
    usuarioId: tenant.usuarioId,
    somenteLeitura: link.readOnly,
    expiraEm,
  };
}

/** The link's address: the portal's entry page with the token in the fragment (never sent to a server, nor in a Referer). */
export function portalEntryUrl(origin: string, token: string): string {
  return `${new URL(`${PORTAL_PATH}/entrar`, origin).toString()}#${token}`;
}

/** Opens a session with a link's token, which can never open another: the session and the cookie's value. */
export async function openPortalSession(
  token: string,
): Promise<{ session: PortalSessionView; cookieValue: string; maxAgeSeconds: number }> {
  const db = await getDb();
  const now = Date.now();
  const cookieValue = newSecret();
  const opened = await db.transaction(async (trx) => {
    const link = await consumePortalLink(trx, hashOf(token), now);
    if (!link) return undefined;
    const session = {
      id: crypto.randomUUID(),
      linkId: link.id,
      usuarioId: link.usuarioId,
      sistemaOrigem: link.sistemaOrigem,
      readOnly: link.readOnly,
      createdAt: now,
      expiresAt: now + env().PORTAL_SESSION_MINUTES * 60_000,
    };
    await insertPortalSession(trx, session, hashOf(cookieValue));
    await recordAudit(trx, {
      principal: principalOf(link),
      action: 'portal.session_open',
      target: `portal-session:${session.id}`,
      outcome: 'opened',
      httpStatus: 201,
      after: { link: link.id, somenteLeitura: session.readOnly, expiraEm: new Date(session.expiresAt).toISOString() },
    });
    return session;
  });
  if (!opened) throw refuse.notFound('This portal link was already used, has expired or was revoked: ask for a new one.');
  return {
    session: viewOf(opened),
    cookieValue,
    maxAgeSeconds: (opened.expiresAt - now) / 1000,
  };
}

function viewOf(session: Omit<StoredPortalSession, 'revokedAt'>): PortalSessionView {
  return {
    id: session.id,
    usuarioId: session.usuarioId,
    somenteLeitura: session.readOnly,
    expiraEm: new Date(session.expiresAt).toISOString(),
  };
}

/** The partner behind a portal cookie while its session lasts: read on every request, so a revocation stops the next one. */
export async function portalPrincipalOf(cookieValue: string | undefined): Promise<ApiClientPrincipal | undefined> {
  if (!cookieValue || !/^[A-Za-z0-9_-]{43}$/.test(cookieValue)) return undefined;
  const session = await findLivePortalSession(await getDb(), hashOf(cookieValue), Date.now());
  return session ? principalOf(session, session) : undefined;
}

/** The session a portal principal is in, for its pages (what it may do, until when). */
export async function portalSessionView(cookieValue: string | undefined): Promise<PortalSessionView | undefined> {
  if (!cookieValue || !/^[A-Za-z0-9_-]{43}$/.test(cookieValue)) return undefined;
  const session = await findLivePortalSession(await getDb(), hashOf(cookieValue), Date.now());
  return session ? viewOf(session) : undefined;
}

export async function portalAccessOf(principal: Principal, usuarioId: string | undefined): Promise<PortalAccess> {
  const tenant = tenantToManage(principal, usuarioId);
  if (tenant === undefined) throw new FieldRejected('usuarioId', 'required', 'usuarioId is required.', '');
  const { links, sessions } = await livePortalAccess(await getDb(), tenant, Date.now());
  return {
    links: links.map((link) => ({
      id: link.id,
      usuarioId: link.usuarioId,
      somenteLeitura: link.readOnly,
      expiraEm: new Date(link.expiresAt).toISOString(),
      emitidoPor: link.issuedBy,
      criadoEm: new Date(link.createdAt).toISOString(),
    })),
    sessoes: sessions.map((session) => ({ ...viewOf(session), criadoEm: new Date(session.createdAt).toISOString() })),
  };
}

/** Revokes a link not yet opened (or a session, below): staff any tenant's, an API client its own; anything else is not found. */
export async function revokePortalLink(principal: Principal, id: string): Promise<void> {
  const db = await getDb();
  const link = await findPortalLink(db, id);
  const tenant = tenantToManage(principal, link?.usuarioId);
  if (!link || tenant !== link.usuarioId) throw refuse.notFound('Portal link not found.');
  await db.transaction(async (trx) => {
    await revokePortalLinkRow(trx, id, Date.now());
    await recordAudit(trx, {
      principal: principalOf(link),
      action: 'portal.link_revoke',
      target: `portal-link:${id}`,
      outcome: 'revoked',
      httpStatus: 204,
      after: { revogadoPor: actorId(principal) },
    });
  });
}

export async function revokePortalSession(principal: Principal, id: string): Promise<void> {
  const db = await getDb();
  const session = await findPortalSession(db, id);
  const tenant = tenantToManage(principal, session?.usuarioId);
  if (!session || tenant !== session.usuarioId) throw refuse.notFound('Portal session not found.');
  await db.transaction(async (trx) => {
    await revokePortalSessionRow(trx, id, Date.now());
    await recordAudit(trx, {
      principal: principalOf(session),
      action: 'portal.session_revoke',
      target: `portal-session:${id}`,
      outcome: 'revoked',
      httpStatus: 204,
      after: { revogadoPor: actorId(principal) },
    });
  });
}

/**
 * Signing out: the session this cookie holds ends now, as a revocation does, so the cookie opens
 * nothing even where the browser kept a copy. No live session behind it: nothing to end.
 */
export async function endPortalSession(cookieValue: string | undefined): Promise<void> {
  if (!cookieValue || !/^[A-Za-z0-9_-]{43}$/.test(cookieValue)) return;
  const db = await getDb();
  const session = await findLivePortalSession(db, hashOf(cookieValue), Date.now());
  if (!session) return;
  await db.transaction(async (trx) => {
    await revokePortalSessionRow(trx, session.id, Date.now());
    await recordAudit(trx, {
      principal: principalOf(session, session),
      action: 'portal.session_end',
      target: `portal-session:${session.id}`,
      outcome: 'ended',
      httpStatus: 204,
    });
  });
}

/**
 * A portal session's change, or its read of a secret, in the audit trail whatever its outcome:
 * the operation, what it was about and the status answered. The operations that audit their own
 * changes (a configuration's update, a rotation) have their own entry beside it.
 */
export async function recordPortalRequest(
  principal: ApiClientPrincipal,
  operationId: string,
  params: Record<string, string>,
  status: number,
): Promise<void> {
  const target = params.id ? `webhook:${params.id}` : `portal-session:${principal.portal?.sessionId ?? ''}`;
  await recordAudit(await getDb(), {
    principal,
    action: 'portal.request',
    target: target.slice(0, 100),
    outcome: status < 400 ? 'done' : 'refused',
    httpStatus: status,
    after: { operacao: operationId, sessao: principal.portal?.sessionId, ...(params.entregaId ? { entrega: params.entregaId } : {}) },
  });
}
