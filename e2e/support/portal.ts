import { expect, request, type APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { PORTAL_API_PREFIX, PORTAL_COOKIE } from '@/lib/portal/cookie';

/**
 * The partner portal for specs (issue 30): a link issued through the API, traded for a session
 * through the portal's API path as its entry page does, and that session's cookie sent by hand (an
 * API context keeps no Secure cookie over http).
 */
export type IssuedLink = { id: string; url: string; usuarioId: string; somenteLeitura: boolean; expiraEm: string };

export async function issueLink(
  api: APIRequestContext,
  headers: Record<string, string>,
  data: Record<string, unknown> = {},
): Promise<IssuedLink> {
  const response = await api.post(apiPath(routes.issuePortalLink), { headers, data });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as IssuedLink;
}

export const tokenOf = (link: IssuedLink) => new URL(link.url).hash.slice(1);

/**
 * POST …/portal/sessao through /portal/api from the portal's own origin: the answer, and the cookie
 * it set. Through a context of its own, thrown away after, so no other context's cookie jar keeps
 * the session and sends it where a spec does not say so.
 */
export async function openSession(baseURL: string, token: string, origin = baseURL) {
  const fresh = await request.newContext({ baseURL });
  try {
    const response = await fresh.post(`${PORTAL_API_PREFIX}${apiPath(routes.openPortalSession)}`, {
      headers: { Origin: origin },
      data: { token },
    });
    const setCookie = response.headers()['set-cookie'] ?? '';
    const value = new RegExp(`${PORTAL_COOKIE}=([^;]*)`).exec(setCookie)?.[1];
    const body =
      response.status() === 201 ? ((await response.json()) as { id: string; usuarioId: string; somenteLeitura: boolean }) : undefined;
    return { status: response.status(), body, setCookie, cookie: value ? `${PORTAL_COOKIE}=${value}` : undefined };
  } finally {
    await fresh.dispose();
  }
}

export async function portalSession(origin: string, link: IssuedLink) {
  const opened = await openSession(origin, tokenOf(link));
  expect(opened.status).toBe(201);
  return { ...opened.body!, headers: { Cookie: opened.cookie!, Origin: origin } };
}
