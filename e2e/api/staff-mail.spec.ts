import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { signInWithPassword } from '../support/api';
import { MailServer } from '../support/mail-server';
import { freePort, newDataDir, startServer, type RunningServer } from '../support/server';
import { STAFF } from '../support/test-seed';

/**
 * One-time password links by e-mail (issue 11 §1): a server of its own with SMTP_URL pointing at a
 * real SMTP server on 127.0.0.1. The link is in the mail and never in the answer; it sets a
 * password that signs in. When the mail server is gone, the admin gets the link to hand over.
 */
test.describe.configure({ mode: 'serial' });

let server: RunningServer;
let mail: MailServer;
let admin: APIRequestContext;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  mail = await new MailServer().start();
  const port = await freePort();
  server = await startServer({
    port,
    dataDir: newDataDir('mail'),
    env: {
      NEXTAUTH_URL: `http://127.0.0.1:${port}`,
      SMTP_URL: mail.url(),
      SMTP_FROM: 'Integration Console <no-reply@hospital.exemplo.com.br>',
      SMTP_TIMEOUT_MS: '2000',
    },
  });
  admin = await playwright.request.newContext({ baseURL: server.url, extraHTTPHeaders: { origin: server.url } });
  expect(await signInWithPassword(admin, STAFF.admin.email, STAFF.admin.password)).toBeNull();
});

test.afterAll(async () => {
  await admin?.dispose();
  await server?.stop();
  await mail?.stop().catch(() => undefined);
});

const linkIn = (text: string) => /https?:\/\/\S+\/definir-senha\?token=[A-Za-z0-9_-]{43}/.exec(text)?.[0];

test('a new account gets its link by e-mail, not in the answer, and the link sets a password that signs in', async ({ playwright }) => {
  const email = 'correio.novo@e2e.exemplo.com.br';
  const created = await admin.post(apiPath(routes.createStaff), { data: { email, nome: 'Caio Correio', perfis: ['scheduling'] } });
  expect(created.status()).toBe(201);
  const body = (await created.json()) as { definicaoSenha: Record<string, unknown> };
  expect(body.definicaoSenha).toEqual({ entrega: 'email', expiraEm: expect.any(String) });
  expect(JSON.stringify(body)).not.toContain('token=');

  const message = await mail.waitFor(email);
  expect(message.from).toBe('no-reply@hospital.exemplo.com.br');
  expect(message.auth).toBe('relay-user');
  expect(message.subject).toContain('Defina sua senha');
  expect(message.text).toContain('Olá, Caio Correio.');
  expect(message.text).toContain('Hello, Caio Correio.');
  const link = linkIn(message.text);
  expect(link).toBeDefined();
  expect(link).toMatch(new RegExp(`^${server.url}/`));

  const set = await admin.post(apiPath(routes.setPasswordWithLink), {
    data: { token: new URL(link!).searchParams.get('token'), senha: 'Carteiro-Veloz-2031' },
  });
  expect(set.status()).toBe(204);
  const person = await playwright.request.newContext({ baseURL: server.url });
  expect(await signInWithPassword(person, email, 'Carteiro-Veloz-2031')).toBeNull();
  await person.dispose();
  // The server log names the purpose, never the address or the link. Log lines are written in
  // batches, so the line may follow the mail by a moment.
  await expect.poll(() => server.logs()).toContain('mail.sent');
  expect(server.logs()).not.toContain(email);
  expect(server.logs()).not.toContain(new URL(link!).searchParams.get('token')!);
});

test('a reset e-mails a new link, and the earlier one stops working', async () => {
  const email = 'correio.reset@e2e.exemplo.com.br';
  const created = (await (
    await admin.post(apiPath(routes.createStaff), { data: { email, nome: 'Rita Reset', perfis: ['webhooks'] } })
  ).json()) as { id: string };
  const first = linkIn((await mail.waitFor(email)).text)!;
  const reset = await admin.post(apiPath(routes.resetStaffPassword, { id: created.id }));
  expect(reset.status()).toBe(200);
  expect(await reset.json()).toEqual({ entrega: 'email', expiraEm: expect.any(String) });
  await expect.poll(() => mail.received.filter((message) => message.to.includes(email)).length).toBe(2);
  const second = mail.received.filter((message) => message.to.includes(email))[1]!;
  expect(second.subject).toContain('Nova senha');
  const secondLink = linkIn(second.text)!;
  expect(secondLink).not.toBe(first);
  const stale = await admin.post(apiPath(routes.setPasswordWithLink), {
    data: { token: new URL(first).searchParams.get('token'), senha: 'Lanterna-Antiga-2031' },
  });
  expect(stale.status()).toBe(400);
  const fresh = await admin.post(apiPath(routes.setPasswordWithLink), {
    data: { token: new URL(secondLink).searchParams.get('token'), senha: 'Lanterna-Antiga-2031' },
  });
  expect(fresh.status()).toBe(204);
});

test('when the mail server is unreachable the account is still created and the admin gets the link to hand over', async () => {
  await mail.stop();
  const email = 'correio.falhou@e2e.exemplo.com.br';
  const created = await admin.post(apiPath(routes.createStaff), { data: { email, nome: 'Fábio Falha', perfis: ['scheduling'] } });
  expect(created.status()).toBe(201);
  const body = (await created.json()) as { definicaoSenha: { entrega: string; link: string; emailFalhou: boolean } };
  expect(body.definicaoSenha.entrega).toBe('manual');
  expect(body.definicaoSenha.emailFalhou).toBe(true);
  expect(linkIn(body.definicaoSenha.link)).toBe(body.definicaoSenha.link);
  await expect.poll(() => server.logs()).toContain('mail.send_failed');
  expect(server.logs()).not.toContain(email);
});
