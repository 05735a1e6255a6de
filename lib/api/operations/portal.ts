import 'server-only';
import { refuse } from '@/lib/errors/refusal';
import { isSameOrigin, linkOrigin } from '@/lib/http/same-origin';
import { ref } from '@/lib/openapi/components';
import { json } from '@/lib/openapi/fragments';
import {
  portalAccessQuerySchema,
  portalAccessSchema,
  portalLinkCreateSchema,
  portalLinkParams,
  portalLinkSchema,
  portalSessionOpenSchema,
  portalSessionParams,
  portalSessionSchema,
} from '@/lib/portal/contract';
import { clearedPortalSessionCookie, PORTAL_COOKIE, portalSessionCookie } from '@/lib/portal/cookie';
import { readCookie } from '@/lib/auth/staff-session';
import {
  endPortalSession,
  issuePortalLink,
  openPortalSession,
  portalAccessOf,
  revokePortalLink,
  revokePortalSession,
} from '@/lib/portal/service';
import { answer } from '@/lib/http/answers';
import { operation } from '@/lib/http/operation';

const TAGS = ['Partner portal'];
const noSuchLink = answer.problem('No portal link you may manage has this id.');
const noSuchSession = answer.problem('No portal session you may manage has this id.');

/**
 * The partner portal (issue 30): links into a tenant's own webhooks, issued by staff with the
 * webhooks role or by the tenant's API client, and the sessions they open. A portal session itself
 * manages none of these (403).
 */
export const portalOperations = {
  issuePortalLink: operation(
    {
      method: 'POST',
      path: '/api/v2/avaliacao-saude/portal/links',
      body: portalLinkCreateSchema,
      capability: 'webhooks',
      responses: { 201: answer.json(portalLinkSchema, 'The link, to be opened once before expiraEm.') },
      doc: {
        summary: 'Issue a partner portal link',
        tags: TAGS,
        description:
          'A single-use link into the partner portal, where the tenant sees and manages its own webhook configurations, delivery log, health and signing secrets (pt-BR and English). It must be opened within PORTAL_LINK_MINUTES (15 by default) and opens a session of PORTAL_SESSION_MINUTES (60 by default) in that tenant alone; with somenteLeitura the session only reads. An API client issues links for its own tenant (usuarioId and sistemaOrigem omitted or its own); staff with the webhooks role name the tenant. The token is in this answer only (the server keeps its hash). Show the URL in an iframe of an origin PORTAL_FRAME_ANCESTORS allows, or open it in a browser.',
        requestBody: { required: true, content: json(ref(portalLinkCreateSchema)) },
      },
    },
    async ({ request, principal, body }) => ({ status: 201, body: await issuePortalLink(principal, await body(), linkOrigin(request)) }),
  ),
  listPortalAccess: operation(
    {
      method: 'GET',
      path: '/api/v2/avaliacao-saude/portal/acessos',
      query: portalAccessQuerySchema,
      capability: 'webhooks',
      responses: { 200: answer.json(portalAccessSchema, 'Links not yet opened and sessions still open.') },
      doc: {
        summary: 'A tenant’s open portal links and sessions',
        tags: TAGS,
        description: 'Staff name the tenant (usuarioId, required); an API client sees its own. Never a token.',
        parameters: [{ name: 'usuarioId', in: 'query', required: false, schema: { type: 'string', format: 'uuid' } }],
      },
    },
    async ({ principal, query }) => ({ status: 200, body: await portalAccessOf(principal, query.usuarioId) }),
  ),
  revokePortalLink: operation(
    {
      method: 'DELETE',
      path: '/api/v2/avaliacao-saude/portal/links/{linkId}',
      params: portalLinkParams,
      capability: 'webhooks',
      responses: { 204: answer.empty('Revoked: it opens nothing.'), 404: noSuchLink },
      doc: { summary: 'Revoke a portal link', tags: TAGS },
    },
    async ({ principal, params }) => {
      await revokePortalLink(principal, params.linkId);
      return { status: 204 };
    },
  ),
  revokePortalSession: operation(
    {
      method: 'DELETE',
      path: '/api/v2/avaliacao-saude/portal/sessoes/{sessaoId}',
      params: portalSessionParams,
      capability: 'webhooks',
      responses: { 204: answer.empty('Revoked: its next request is refused.'), 404: noSuchSession },
      doc: { summary: 'End a portal session', tags: TAGS },
    },
    async ({ principal, params }) => {
      await revokePortalSession(principal, params.sessaoId);
      return { status: 204 };
    },
  ),
  openPortalSession: operation(
    {
      method: 'POST',
      path: '/api/v2/avaliacao-saude/portal/sessao',
      body: portalSessionOpenSchema,
      capability: 'public',
      responses: {
        201: answer.json(
          portalSessionSchema,
          'The session: its cookie is set (Path=/portal; HttpOnly; Secure; SameSite=None; Partitioned).',
          {
            headers: { 'Set-Cookie': { description: 'The portal session’s cookie.', schema: { type: 'string' } } },
          },
        ),
        403: answer.problem('Not sent by a page of the portal (Origin).'),
        404: answer.problem('The link was already opened, has expired or was revoked.'),
      },
      doc: {
        summary: 'Open a portal session with a link',
        tags: TAGS,
        description:
          'For the portal’s entry page, which reads the token from the link’s fragment: the link can never open another session.',
        security: [{}],
      },
    },
    async (request, _params, body) => {
      if (!isSameOrigin(request)) throw refuse.forbidden('A portal session is opened by the portal’s own page.');
      const { token } = await body();
      const { session, cookieValue, maxAgeSeconds } = await openPortalSession(token);
      return { status: 201, body: session, headers: [['Set-Cookie', portalSessionCookie(cookieValue, maxAgeSeconds)]] };
    },
  ),
  closePortalSession: operation(
    {
      method: 'DELETE',
      path: '/api/v2/avaliacao-saude/portal/sessao',
      capability: 'public',
      responses: {
        204: answer.empty('Signed out: the session this cookie held is over and the cookie is cleared.', {
          headers: { 'Set-Cookie': { description: 'The portal session’s cookie, cleared.', schema: { type: 'string' } } },
        }),
        403: answer.problem('Not sent by a page of the portal (Origin).'),
      },
      doc: {
        summary: 'Sign out of the portal',
        tags: TAGS,
        description:
          'For the portal’s own pages: ends the session the portal’s cookie holds (as a revocation does) and clears the cookie. Without a live session it answers the same, with nothing to end.',
        security: [{}],
      },
    },
    async (request) => {
      if (!isSameOrigin(request)) throw refuse.forbidden('A portal session is closed by the portal’s own page.');
      await endPortalSession(readCookie(request, PORTAL_COOKIE));
      return { status: 204, headers: [['Set-Cookie', clearedPortalSessionCookie()]] };
    },
  ),
};
