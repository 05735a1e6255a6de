// A console session cookie for the bench's admin, through next-auth's real credentials sign-in.
export async function sessionCookie(url, staff) {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const { csrfToken } = await csrf.json();
  const jar = csrf.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
  const response = await fetch(`${url}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.join('; ') },
    body: new URLSearchParams({ email: staff.email, password: staff.password, csrfToken, json: 'true' }),
  });
  const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith('next-auth.session-token='));
  if (!session) throw new Error(`sign-in failed: HTTP ${response.status}`);
  return session.split(';')[0];
}

/**
 * A partner portal session cookie for the bench's tenant: a link issued by the bench's admin
 * through the console's API (same-origin, as the console's page issues it), then traded for a
 * session through the portal's API path, as the portal's entry page does with its button.
 */
export async function portalCookie(url, staffCookie, tenant) {
  const issued = await fetch(`${url}/api/v2/avaliacao-saude/portal/links`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: staffCookie, origin: url },
    body: JSON.stringify({ usuarioId: tenant.usuarioId, sistemaOrigem: tenant.sistemaOrigem }),
  });
  if (issued.status !== 201) throw new Error(`portal link: HTTP ${issued.status} ${await issued.text()}`);
  const token = new URL((await issued.json()).url).hash.slice(1);
  const opened = await fetch(`${url}/portal/api/v2/avaliacao-saude/portal/sessao`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ token }),
  });
  const session = opened.headers.getSetCookie().find((cookie) => cookie.startsWith('portal-session='));
  if (opened.status !== 201 || !session) throw new Error(`portal session: HTTP ${opened.status}`);
  return session.split(';')[0];
}

/** The cookie each kind of page is loaded with (consolePages' fourth column): none, the admin's, or the portal's. */
export async function pageCookies(url, staff, tenant) {
  const staffCookie = await sessionCookie(url, staff);
  return { none: undefined, staff: staffCookie, portal: await portalCookie(url, staffCookie, tenant) };
}
