import { expect, it } from 'vitest';
import { getDb } from '@/lib/db/handle';
import { sweepRetention } from '@/lib/retention';
import { listAudit } from '@/lib/audit/store';
import type { ApiClientPrincipal, StaffPrincipal } from '@/lib/auth/principal';
import {
  issuePortalLink,
  openPortalSession,
  portalAccessOf,
  portalPrincipalOf,
  revokePortalLink,
  revokePortalSession,
} from '@/lib/portal/service';
import { TENANT_A, TENANT_B } from '@/e2e/support/test-seed';

/**
 * The partner portal's links and sessions (issue 30) on every database: a link opens one session
 * once, even when opened twice at once; only hashes are stored; a session is its tenant's API
 * client and ends when revoked; rows past their end go with the retention sweep.
 */
const tenantB: ApiClientPrincipal = {
  kind: 'api-client',
  issuer: 'embedded',
  scopes: ['webhooks'],
  clientId: TENANT_B.clientId,
  usuarioId: TENANT_B.usuarioId,
  sistemaOrigem: TENANT_B.sistemaOrigem,
};
const staff: StaffPrincipal = {
  kind: 'staff',
  userId: 'u-portal',
  email: 'webhooks@e2e.exemplo.com.br',
  name: 'Bruno',
  roles: ['webhooks'],
};
const ORIGIN = 'https://console.exemplo';
const tokenOf = (url: string) => new URL(url).hash.slice(1);

export function portalContract(): void {
  it('portal: a link opens one session, once, even opened twice at once; only hashes are stored', async () => {
    const link = await issuePortalLink(
      staff,
      { usuarioId: TENANT_A.usuarioId, sistemaOrigem: TENANT_A.sistemaOrigem, somenteLeitura: true },
      ORIGIN,
    );
    expect(link.url).toMatch(/^https:\/\/console\.exemplo\/portal\/entrar#[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(link.url);
    const outcomes = await Promise.allSettled([openPortalSession(token), openPortalSession(token)]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    await expect(openPortalSession(token)).rejects.toMatchObject({ kind: 'not-found' });
    const opened = outcomes.find((outcome) => outcome.status === 'fulfilled')!.value;
    expect(opened.session).toMatchObject({ usuarioId: TENANT_A.usuarioId, somenteLeitura: true });
    const db = await getDb();
    const stored = JSON.stringify([
      await db('portal_links').where({ id: link.id }),
      await db('portal_sessions').where({ id: opened.session.id }),
    ]);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(opened.cookieValue);

    const principal = await portalPrincipalOf(opened.cookieValue);
    expect(principal).toEqual({
      kind: 'api-client',
      issuer: 'portal',
      clientId: `portal:${TENANT_A.usuarioId}`,
      usuarioId: TENANT_A.usuarioId,
      sistemaOrigem: TENANT_A.sistemaOrigem,
      scopes: ['webhooks'],
      portal: { sessionId: opened.session.id, readOnly: true },
    });
    const trail = await listAudit({ ator: `portal:${TENANT_A.usuarioId}`, limite: 500 });
    expect(trail.map((entry) => `${entry.acao} ${entry.alvo}`)).toEqual(
      expect.arrayContaining([`portal.link_issue portal-link:${link.id}`, `portal.session_open portal-session:${opened.session.id}`]),
    );
  });

  it('portal: a session is listed and revoked by staff or its tenant’s client, not another tenant’s; then it is over', async () => {
    const link = await issuePortalLink(tenantB, { somenteLeitura: false }, ORIGIN);
    const unopened = await issuePortalLink(tenantB, { somenteLeitura: false }, ORIGIN);
    const { session, cookieValue } = await openPortalSession(tokenOf(link.url));
    const access = await portalAccessOf(staff, TENANT_B.usuarioId);
    expect(access.sessoes.map((item) => item.id)).toContain(session.id);
    expect(access.links.map((item) => item.id)).toContain(unopened.id);
    expect(access.links.map((item) => item.id)).not.toContain(link.id);
    const partner = (await portalPrincipalOf(cookieValue))!;
    await expect(portalAccessOf(partner, undefined)).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(issuePortalLink(partner, { somenteLeitura: false }, ORIGIN)).rejects.toMatchObject({ kind: 'forbidden' });
    const otherTenant: ApiClientPrincipal = { ...tenantB, clientId: TENANT_A.clientId, usuarioId: TENANT_A.usuarioId };
    await expect(revokePortalSession(otherTenant, session.id)).rejects.toMatchObject({ kind: 'not-found' });
    await expect(revokePortalLink(otherTenant, unopened.id)).rejects.toMatchObject({ kind: 'not-found' });
    await revokePortalSession(tenantB, session.id);
    await revokePortalLink(staff, unopened.id);
    expect(await portalPrincipalOf(cookieValue)).toBeUndefined();
    await expect(openPortalSession(tokenOf(unopened.url))).rejects.toMatchObject({ kind: 'not-found' });
  });

  it('portal: links and sessions a day past their end go with the retention sweep', async () => {
    const link = await issuePortalLink(
      staff,
      { usuarioId: TENANT_A.usuarioId, sistemaOrigem: TENANT_A.sistemaOrigem, somenteLeitura: false },
      ORIGIN,
    );
    const db = await getDb();
    const swept = await sweepRetention(db, { deliveryDays: 90 }, Date.now() + 2 * 86_400_000);
    expect(swept.portal).toBeGreaterThanOrEqual(1);
    expect(await db('portal_links').where({ id: link.id })).toHaveLength(0);
  });
}
