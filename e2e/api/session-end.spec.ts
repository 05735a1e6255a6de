import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { signInWithPassword } from '../support/api';
import { staffSessionCookie } from '../support/server-db';
import { STAFF } from '../support/test-seed';

/**
 * A password change or reset, and disabling, end the account's other console sessions (issue 27
 * §7): each session carries the account's session version and is refused once it changed. The
 * sessions here are real ones, from next-auth's own sign-in, each in an API context of its own
 * with its own cookie jar (as a browser keeps them), from its own address (X-Forwarded-For from
 * the trusted proxy 127.0.0.1), so no spec's throttle counters touch another's.
 */
const PASSWORD = 'Girassol-Trem-Azul-77';
const NEW_PASSWORD = 'Outra-Senha-Muito-Boa-88';
const LIST = apiPath(routes.listWebhookConfigurations);
const CHANGE = apiPath(routes.changeOwnPassword);
const PAGE = '/webhooks';

type Playwright = { request: { newContext(options: object): Promise<APIRequestContext> } };
type Session = { api: APIRequestContext; cookie: () => Promise<{ header: string; expires: number }> };

/** A webhooks-role account with PASSWORD set through its one-time link; answers its id. */
async function newStaff(request: APIRequestContext, baseURL: string, email: string): Promise<string> {
  const admin = { cookie: await staffSessionCookie(STAFF.admin.email), origin: new URL(baseURL).origin };
  const created = await request.post(apiPath(routes.createStaff), {
    headers: admin,
    data: { email, nome: 'Sessões', perfis: ['webhooks'] },
  });
  expect(created.status()).toBe(201);
  const body = (await created.json()) as { id: string; definicaoSenha: { link: string } };
  const token = new URL(body.definicaoSenha.link).searchParams.get('token');
  expect((await request.post(apiPath(routes.setPasswordWithLink), { data: { token, senha: PASSWORD } })).status()).toBe(204);
  return body.id;
}

async function adminHeaders(baseURL: string) {
  return { cookie: await staffSessionCookie(STAFF.admin.email), origin: new URL(baseURL).origin };
}

const contexts: APIRequestContext[] = [];
test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.dispose()));
});

/** A signed-in session through next-auth's real sign-in, from `address`. */
async function signedIn(playwright: Playwright, baseURL: string, email: string, password: string, address: string): Promise<Session> {
  const api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': address, origin: new URL(baseURL).origin },
  });
  contexts.push(api);
  expect(await signInWithPassword(api, email, password)).toBeNull();
  const cookie = async () => {
    const jar = (await api.storageState()).cookies.filter((c) => c.name === 'next-auth.session-token');
    expect(jar).toHaveLength(1);
    return { header: `${jar[0]!.name}=${jar[0]!.value}`, expires: jar[0]!.expires };
  };
  return { api, cookie };
}

const changePassword = (session: Session, senhaAtual: string, novaSenha = NEW_PASSWORD, headers: Record<string, string> = {}) =>
  session.api.post(CHANGE, { data: { senhaAtual, novaSenha }, headers });

/** The API with the session's cookie: 200, or 401 problem+json once the session has ended. */
async function expectSignedIn(session: Session, signedInNow: boolean) {
  const response = await session.api.get(LIST);
  expect(response.status()).toBe(signedInNow ? 200 : 401);
  if (!signedInNow) expect(response.headers()['content-type']).toContain('application/problem+json');
  // A console page: rendered, or a redirect to the sign-in page.
  const page = await session.api.get(PAGE, { maxRedirects: 0 });
  if (signedInNow) expect(page.status()).toBe(200);
  else {
    expect(page.status()).toBe(307);
    expect(page.headers().location).toContain('/sign-in');
  }
}

function expectProblem(response: APIResponse) {
  expect(response.headers()['content-type']).toContain('application/problem+json');
}

test('another session is ended by a password change; the session that made it stays signed in', async ({
  request,
  baseURL,
  playwright,
}) => {
  const email = 'sessoes-troca@e2e.exemplo.com.br';
  await newStaff(request, baseURL!, email);
  const mine = await signedIn(playwright, baseURL!, email, PASSWORD, '203.0.113.61');
  const other = await signedIn(playwright, baseURL!, email, PASSWORD, '203.0.113.62');
  await expectSignedIn(mine, true);
  await expectSignedIn(other, true);
  const before = await mine.cookie();

  const changed = await changePassword(mine, PASSWORD);
  expect(changed.status()).toBe(204);
  const renewed = changed.headersArray().filter((header) => header.name.toLowerCase() === 'set-cookie');
  expect(renewed).toHaveLength(1);
  expect(renewed[0]!.value).toMatch(/^next-auth\.session-token=[^;]+; Expires=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
  // The renewed cookie ends when the old one did: a password change does not lengthen a session.
  const after = await mine.cookie();
  expect(after.header).not.toBe(before.header);
  expect(Math.abs(after.expires - before.expires)).toBeLessThanOrEqual(1);

  await expectSignedIn(mine, true);
  await expectSignedIn(other, false);
  // The old cookie of the session that changed the password is refused too: only the renewed one works.
  expect((await request.get(LIST, { headers: { cookie: before.header } })).status()).toBe(401);
  // An ended session cannot change the password either, even knowing the one it signed in with.
  const late = await changePassword(other, PASSWORD, 'Mais-Uma-Senha-Boa-99');
  expect(late.status()).toBe(401);
  expectProblem(late);

  // A new sign-in takes the new password, and only it.
  const again = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': '203.0.113.62' } });
  contexts.push(again);
  expect(await signInWithPassword(again, email, PASSWORD)).not.toBeNull();
  await expectSignedIn(await signedIn(playwright, baseURL!, email, NEW_PASSWORD, '203.0.113.62'), true);
});

test('a password set with a one-time link ends every session; issuing the link ends none', async ({ request, baseURL, playwright }) => {
  const email = 'sessoes-link@e2e.exemplo.com.br';
  const id = await newStaff(request, baseURL!, email);
  const first = await signedIn(playwright, baseURL!, email, PASSWORD, '203.0.113.63');
  const second = await signedIn(playwright, baseURL!, email, PASSWORD, '203.0.113.64');

  const reset = await request.post(apiPath(routes.resetStaffPassword, { id }), { headers: await adminHeaders(baseURL!) });
  expect(reset.status()).toBe(200);
  // The old password still signs in until the link is used: ending sessions now would protect nothing.
  await expectSignedIn(first, true);

  const token = new URL(((await reset.json()) as { link: string }).link).searchParams.get('token');
  expect((await request.post(apiPath(routes.setPasswordWithLink), { data: { token, senha: NEW_PASSWORD } })).status()).toBe(204);
  await expectSignedIn(first, false);
  await expectSignedIn(second, false);
  await expectSignedIn(await signedIn(playwright, baseURL!, email, NEW_PASSWORD, '203.0.113.63'), true);
});

test('disabling an account ends its sessions for good: enabling it again revives none', async ({ request, baseURL, playwright }) => {
  const email = 'sessoes-desativar@e2e.exemplo.com.br';
  const id = await newStaff(request, baseURL!, email);
  const session = await signedIn(playwright, baseURL!, email, PASSWORD, '203.0.113.65');
  const headers = await adminHeaders(baseURL!);
  expect((await request.put(apiPath(routes.updateStaff, { id }), { headers, data: { ativo: false } })).status()).toBe(200);
  await expectSignedIn(session, false);
  expect((await request.put(apiPath(routes.updateStaff, { id }), { headers, data: { ativo: true } })).status()).toBe(200);
  await expectSignedIn(session, false);
  await expectSignedIn(await signedIn(playwright, baseURL!, email, PASSWORD, '203.0.113.65'), true);
});

test('wrong current passwords lock the guessing session (429, Retry-After, the field in the caller’s language), not the owner’s other session', async ({
  request,
  baseURL,
  playwright,
}) => {
  const email = 'sessoes-palpites@e2e.exemplo.com.br';
  await newStaff(request, baseURL!, email);
  const guesser = await signedIn(playwright, baseURL!, email, PASSWORD, '203.0.113.66');
  const owner = await signedIn(playwright, baseURL!, email, PASSWORD, '203.0.113.66');

  // Counted before the check: of parallel guesses exactly five are checked.
  const guesses = await Promise.all(Array.from({ length: 8 }, (_, i) => changePassword(guesser, `errada-errada-${i}`)));
  expect(guesses.map((response) => response.status()).sort()).toEqual([400, 400, 400, 400, 400, 429, 429, 429]);
  const wrong = guesses.find((response) => response.status() === 400)!;
  expect(((await wrong.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe('passwordWrong');

  const locked = await changePassword(guesser, PASSWORD);
  expect(locked.status()).toBe(429);
  expectProblem(locked);
  const retryAfter = Number(locked.headers()['retry-after']);
  expect(retryAfter).toBeGreaterThan(800);
  expect(retryAfter).toBeLessThanOrEqual(900);
  expect(await locked.json()).toEqual({
    type: 'urn:integration-console:problem:too-many-requests',
    title: 'Too Many Requests',
    status: 429,
    detail: 'Too many wrong current passwords; retry later.',
    errors: [
      {
        field: 'senhaAtual',
        pointer: '#/senhaAtual',
        code: 'passwordAttemptsLocked',
        message: 'Muitas tentativas com a senha atual errada. Tente novamente em 15 min.',
      },
    ],
  });
  const english = await changePassword(guesser, PASSWORD, NEW_PASSWORD, { 'Accept-Language': 'en' });
  expect(((await english.json()) as { errors: { message: string }[] }).errors[0]?.message).toBe(
    'Too many wrong current passwords. Try again in 15 min.',
  );
  await expectSignedIn(guesser, true); // throttled, not signed out

  // The owner's own session, from the same address, still changes the password, ending the guesser's.
  expect((await changePassword(owner, PASSWORD)).status()).toBe(204);
  await expectSignedIn(guesser, false);
  await expectSignedIn(owner, true);
});

test('wrong current passwords are limited per account across sessions, and count against the address’s sign-in limit', async ({
  request,
  baseURL,
  playwright,
}) => {
  // Per account: four sessions' five guesses each (from four addresses) lock every session of it.
  const email = 'sessoes-conta@e2e.exemplo.com.br';
  await newStaff(request, baseURL!, email);
  for (let i = 0; i < 4; i++) {
    const session = await signedIn(playwright, baseURL!, email, PASSWORD, `203.0.113.${70 + i}`);
    for (let guess = 0; guess < 5; guess++) expect((await changePassword(session, `errada-errada-${guess}`)).status()).toBe(400);
  }
  const fifth = await signedIn(playwright, baseURL!, email, PASSWORD, '203.0.113.74');
  expect((await changePassword(fifth, PASSWORD)).status()).toBe(429);

  // Per address: guesses at the current password and failed sign-ins share the address's 30.
  const address = '203.0.113.75';
  const other = 'sessoes-endereco@e2e.exemplo.com.br';
  await newStaff(request, baseURL!, other);
  const guesser = await signedIn(playwright, baseURL!, other, PASSWORD, address);
  const second = await signedIn(playwright, baseURL!, other, PASSWORD, address);
  for (let guess = 0; guess < 5; guess++) expect((await changePassword(guesser, `errada-errada-${guess}`)).status()).toBe(400);
  const stranger = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': address } });
  contexts.push(stranger);
  for (let i = 0; i < 25; i++) {
    expect(await signInWithPassword(stranger, `desconhecido-${i % 5}@e2e.exemplo.com.br`, 'errada-errada')).toBe('CredentialsSignin');
  }
  // The address is locked: a right current password from it is not even checked; from elsewhere it is.
  expect((await changePassword(second, PASSWORD)).status()).toBe(429);
  expect(await signInWithPassword(stranger, other, PASSWORD)).toBe('locked');
  expect((await changePassword(second, PASSWORD, NEW_PASSWORD, { 'X-Forwarded-For': '203.0.113.76' })).status()).toBe(204);
});
