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
