import { expect, test } from '../support/browser-test';
import type { APIRequest, Page } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { signInWithPassword } from '../support/api';
import { expectNoSeriousA11yViolations } from '../support/console';
import { OIDC_CLIENT, OIDC_ROLE_MAP, OIDC_USERS, OidcProvider } from '../support/oidc-provider';
import { freePort, newDataDir, startServer, type RunningServer } from '../support/server';
import { STAFF } from '../support/test-seed';

/**
 * Single sign-on for staff (issue 11 §4) against a real OpenID Connect provider on 127.0.0.1, in
 * Chromium: the authorization code flow with PKCE through the provider's own login page, the
 * session's roles from the mapped group, the refusal of a user without a mapped group, and a
 * console with password sign-in switched off. Servers of their own: SSO is configuration.
 */
test.describe.configure({ mode: 'serial' });
test.use({ locale: 'pt-BR' });

let idp: OidcProvider;
let server: RunningServer;

function ssoEnv(appUrl: string, issuer: string, extra: Record<string, string> = {}) {
  return {
    NEXTAUTH_URL: appUrl,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: OIDC_CLIENT.id,
    OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
    OIDC_DISPLAY_NAME: 'Hospital SSO',
    OIDC_ROLES_CLAIM: 'groups',
    OIDC_ROLE_MAP,
    ...extra,
  };
}

test.beforeAll(async () => {
  test.setTimeout(90_000);
  // The identity provider must know the app's address before the app starts: the port is chosen first.
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  idp = await new OidcProvider(await freePort(), `${appUrl}/api/auth/callback/oidc`).start();
  server = await startServer({ port, dataDir: newDataDir('sso'), env: ssoEnv(appUrl, idp.issuer) });
});

test.afterAll(async () => {
  await server?.stop();
  await idp?.stop();
});

/** From the console's sign-in page through the provider's own pages: its login form (any password), then its consent. */
async function signInThroughProvider(page: Page, login: string) {
  await page.getByRole('button', { name: 'Entrar com Hospital SSO' }).click();
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('qualquer-senha');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** The staff list as an admin sees it (a password session of its own). */
async function staffListAsAdmin(requests: APIRequest) {
  const admin = await requests.newContext({ baseURL: server.url });
  try {
    expect(await signInWithPassword(admin, STAFF.admin.email, STAFF.admin.password)).toBeNull();
    return (await (await admin.get(apiPath(routes.listStaff))).json()) as { email: string; perfis: string[]; sso: boolean }[];
  } finally {
    await admin.dispose();
  }
}

test('a scheduler signs in through the identity provider with PKCE and gets the scheduling role only', async ({ page, playwright }) => {
  await page.goto(`${server.url}/sign-in`);
  await expect(page.getByLabel('Senha')).toBeVisible(); // password sign-in stays beside SSO by default
  await expectNoSeriousA11yViolations(page);
  await signInThroughProvider(page, OIDC_USERS.scheduler.login);

  await expect(page).toHaveURL(`${server.url}/scheduling`);
  await expect(page.getByTestId('signed-in-user')).toContainText(OIDC_USERS.scheduler.name);
  const sent = idp.authorizationRequests.at(-1)!;
  expect(sent.code_challenge_method).toBe('S256');
  expect(sent.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(sent.state).toBeTruthy();
  expect(sent.nonce).toBeTruthy();

  // The session's roles: scheduling answers, webhooks and administration are refused.
  expect((await page.request.get(`${server.url}${apiPath(routes.listProcedures)}`)).status()).toBe(200);
  expect((await page.request.get(`${server.url}${apiPath(routes.listWebhookConfigurations)}`)).status()).toBe(403);
  expect((await page.request.get(`${server.url}${apiPath(routes.listStaff)}`)).status()).toBe(403);
  await page.goto(`${server.url}/conta`);
  await expect(page.getByText('a senha é trocada no provedor de identidade')).toBeVisible();

  // An admin sees the account the sign-in made, marked SSO, with the mapped role.
  const staff = await staffListAsAdmin(playwright.request);
  expect(staff.find((user) => user.email === OIDC_USERS.scheduler.email)).toMatchObject({ perfis: ['scheduling'], sso: true });
});

test('a user whose groups map to no console role is refused with a clear message and gets no session', async ({ page, playwright }) => {
  await page.goto(`${server.url}/sign-in`);
  await signInThroughProvider(page, OIDC_USERS.unmapped.login);

  await expect(page).toHaveURL(/\/sign-in\?error=SsoNoRole/);
  await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toHaveText(
    'Sua conta no provedor de identidade não tem nenhum papel liberado para este console. Peça acesso ao administrador.',
  );
  await expectNoSeriousA11yViolations(page);
  expect((await page.request.get(`${server.url}${apiPath(routes.listProcedures)}`)).status()).toBe(401);
  await page.goto(`${server.url}/scheduling`);
  await expect(page).toHaveURL(/\/sign-in/);

  const staff = await staffListAsAdmin(playwright.request);
  expect(staff.map((user) => user.email)).not.toContain(OIDC_USERS.unmapped.email);
});

test('an existing password account is linked only when the provider verified the address', async ({ page, playwright }) => {
  // Not verified: someone who set a staff member's address at the provider must not become them.
  await page.goto(`${server.url}/sign-in`);
  await signInThroughProvider(page, OIDC_USERS.unverifiedTwin.login);
  await expect(page).toHaveURL(/\/sign-in\?error=SsoUnverifiedEmail/);
  await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toHaveText(
    'Já existe neste console uma conta com o seu e-mail, mas o provedor de identidade não confirma que o endereço é seu. Fale com o administrador.',
  );
  const owner = await playwright.request.newContext({ baseURL: server.url });
  expect(await signInWithPassword(owner, STAFF.webhooks.email, STAFF.webhooks.password)).toBeNull();
  await owner.dispose();

  // A session the password opened before the account is linked.
  const passwordSession = await playwright.request.newContext({ baseURL: server.url });
  expect(await signInWithPassword(passwordSession, STAFF.scheduling.email, STAFF.scheduling.password)).toBeNull();
  const slots = apiPath(routes.listFreeSlots);
  expect((await passwordSession.get(slots)).status()).toBe(200);

  // Verified: the account becomes this person's SSO account, and its old password stops working.
  await page.context().clearCookies();
  await page.goto(`${server.url}/sign-in`);
  await signInThroughProvider(page, OIDC_USERS.verifiedTwin.login);
  await expect(page).toHaveURL(`${server.url}/scheduling`);
  await expect(page.getByTestId('signed-in-user')).toContainText(OIDC_USERS.verifiedTwin.name);
  const former = await playwright.request.newContext({ baseURL: server.url });
  expect(await signInWithPassword(former, STAFF.scheduling.email, STAFF.scheduling.password)).not.toBeNull();
  await former.dispose();
  // Nor do the sessions it opened; the provider's session carries the account's new session version.
  expect((await passwordSession.get(slots)).status()).toBe(401);
  await passwordSession.dispose();
  expect((await page.request.get(`${server.url}${slots}`)).status()).toBe(200);
});

test('with PASSWORD_SIGN_IN=false the console offers only single sign-on, and the password callback refuses', async ({
  page,
  playwright,
}) => {
  const port = await freePort();
  const strict = await startServer({
    port,
    dataDir: newDataDir('sso-only'),
    env: ssoEnv(`http://127.0.0.1:${port}`, idp.issuer, { PASSWORD_SIGN_IN: 'false' }),
  });
  try {
    await page.goto(`${strict.url}/sign-in`);
    await expect(page.getByText('Entre com a conta da sua organização.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Entrar com Hospital SSO' })).toBeVisible();
    await expect(page.getByLabel('Senha')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    // The credentials callback no longer exists: no session comes out of a correct password.
    const api = await playwright.request.newContext({ baseURL: strict.url });
    const { csrfToken } = (await (await api.get('/api/auth/csrf')).json()) as { csrfToken: string };
    const attempt = await api.post('/api/auth/callback/credentials', {
      form: { email: STAFF.admin.email, password: STAFF.admin.password, csrfToken, json: 'true' },
      maxRedirects: 0,
    });
    expect(attempt.status()).toBe(400);
    expect((await api.storageState()).cookies.map((cookie) => cookie.name)).not.toContain('next-auth.session-token');
    expect((await api.get(apiPath(routes.listStaff))).status()).toBe(401);
    await api.dispose();
  } finally {
    await strict.stop();
  }
});
