import { markSigningOut } from './api';

/**
 * The three next-auth 4 requests the console makes from the browser, as plain fetches. They are
 * what `next-auth/react` sends (its signIn and signOut), without the 9 KiB of session machinery
 * every console page downloaded for them: the console reads the session on the server.
 * Each POST carries next-auth's CSRF token (its double-submit cookie is set by /api/auth/csrf).
 */
const AUTH_BASE = '/api/auth';

async function csrfToken(): Promise<string> {
  const response = await fetch(`${AUTH_BASE}/csrf`, { credentials: 'same-origin' });
  const body = (await response.json()) as { csrfToken?: unknown };
  if (typeof body.csrfToken !== 'string') throw new Error('no CSRF token');
  return body.csrfToken;
}

/** POSTs a next-auth action; answers the URL next-auth would have sent the browser to. */
async function post(path: string, fields: Record<string, string>): Promise<URL> {
  const response = await fetch(`${AUTH_BASE}/${path}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Auth-Return-Redirect': '1' },
    body: new URLSearchParams({ ...fields, csrfToken: await csrfToken(), json: 'true' }),
  });
  const body = (await response.json()) as { url?: unknown };
  if (typeof body.url !== 'string') throw new Error(`next-auth ${path}: no url`);
  return new URL(body.url, window.location.origin);
}

/** E-mail and password; the error code next-auth answers (`CredentialsSignin`, `locked`…), or null. */
export async function signInWithPassword(email: string, password: string): Promise<string | null> {
  const url = await post('callback/credentials', { email, password, callbackUrl: window.location.href });
  return url.searchParams.get('error');
}

/** Single sign-on: the browser goes to the identity provider (PKCE, state and nonce kept by next-auth in cookies). */
export async function signInWithProvider(providerId: string, callbackUrl: string): Promise<void> {
  const url = await post(`signin/${encodeURIComponent(providerId)}`, { callbackUrl });
  window.location.assign(url);
}

export async function signOut(): Promise<void> {
  // A poll answered 401 once the session is gone must not send the page to "session expired"
  // instead of where the caller goes next.
  markSigningOut();
  await post('signout', { callbackUrl: window.location.origin });
}
