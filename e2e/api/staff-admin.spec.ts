import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { signInWithPassword } from '../support/api';
import { auditRows, staffSessionCookie } from '../support/server-db';
import { STAFF } from '../support/test-seed';

/** Staff accounts managed by admins (issue 11 §1): one-time links, roles, disabling, own password. */
async function adminHeaders(baseURL: string | undefined) {
  return { cookie: await staffSessionCookie(STAFF.admin.email), origin: new URL(baseURL!).origin };
}

/** A real password sign-in through next-auth: the error it would redirect with, or null. */
async function signIn(
  playwright: { request: { newContext(options: object): Promise<APIRequestContext> } },
  baseURL: string,
  email: string,
  password: string,
) {
  const api = await playwright.request.newContext({ baseURL });
  try {
    return await signInWithPassword(api, email, password);
  } finally {
    await api.dispose();
  }
}

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

test('an admin creates a user; the one-time link sets a password that follows the rules, once', async ({
  request,
  baseURL,
  playwright,
}) => {
  const headers = await adminHeaders(baseURL);
  const created = await request.post(apiPath(routes.createStaff), {
    headers,
    data: { email: 'Nova.Agenda@e2e.exemplo.com.br', nome: 'Nina Agenda', perfis: ['scheduling'] },
  });
  expect(created.status()).toBe(201);
  const body = (await created.json()) as { id: string; email: string; ativo: boolean; definicaoSenha: { link: string; expiraEm: string } };
  expect(body).toMatchObject({ email: 'nova.agenda@e2e.exemplo.com.br', nome: 'Nina Agenda', perfis: ['scheduling'], ativo: true });
  expect(body.definicaoSenha.link).toMatch(/\/definir-senha\?token=[A-Za-z0-9_-]{43}$/);
  expect(Date.parse(body.definicaoSenha.expiraEm) - Date.now()).toBeGreaterThan(23 * 3_600_000);
  expect(
    (await request.post(apiPath(routes.createStaff), { headers, data: { email: body.email, nome: 'X', perfis: ['scheduling'] } })).status(),
  ).toBe(409);

  // No password yet: nothing signs in.
  expect(await signIn(playwright, baseURL!, body.email, '')).not.toBeNull();
  const set = (senha: string, token = tokenOf(body.definicaoSenha.link)) =>
    request.post(apiPath(routes.setPasswordWithLink), { data: { token, senha } });
  for (const [senha, code] of [
    ['curta', 'passwordTooShort'],
    ['nova.agenda-2026-forte', 'passwordContainsEmail'],
    ['qwerty123456', 'passwordCommon'],
  ]) {
    const refused = await set(senha!);
    expect(refused.status(), senha).toBe(400);
    expect(((await refused.json()) as { errors: { field: string; code: string }[] }).errors).toEqual([
      expect.objectContaining({ field: 'senha', code }),
    ]);
  }
  expect((await set('Girassol-Trem-Azul-77')).status()).toBe(204);
  expect(await signIn(playwright, baseURL!, body.email, 'Girassol-Trem-Azul-77')).toBeNull();
  const reused = await set('Outra-Senha-Muito-Boa-88');
  expect(((await reused.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe('passwordLinkInvalid');

  const trail = await auditRows(`staff:${body.email}`);
  expect(trail.map((row) => row.action)).toEqual(['staff.create']);
  expect(JSON.stringify(trail)).not.toContain(tokenOf(body.definicaoSenha.link));
});

test('disabling ends the user’s sessions and sign-ins; a reset link replaces the old one; admins cannot lock themselves out', async ({
  request,
  baseURL,
  playwright,
}) => {
  const headers = await adminHeaders(baseURL);
  const created = (await (
    await request.post(apiPath(routes.createStaff), {
      headers,
      data: { email: 'desativar@e2e.exemplo.com.br', nome: 'Dora', perfis: ['webhooks'] },
    })
  ).json()) as { id: string; email: string; definicaoSenha: { link: string } };
  const reset = (await (await request.post(apiPath(routes.resetStaffPassword, { id: created.id }), { headers })).json()) as {
    link: string;
  };
  const old = await request.post(apiPath(routes.setPasswordWithLink), {
    data: { token: tokenOf(created.definicaoSenha.link), senha: 'Girassol-Trem-Azul-77' },
  });
  expect(old.status()).toBe(400);
  expect(
    (
      await request.post(apiPath(routes.setPasswordWithLink), { data: { token: tokenOf(reset.link), senha: 'Girassol-Trem-Azul-77' } })
    ).status(),
  ).toBe(204);

  const session = { cookie: await staffSessionCookie(created.email) };
  const list = apiPath(routes.listWebhookConfigurations);
  expect((await request.get(list, { headers: session })).status()).toBe(200);
  const disabled = await request.put(apiPath(routes.updateStaff, { id: created.id }), { headers, data: { ativo: false } });
  expect(((await disabled.json()) as { ativo: boolean }).ativo).toBe(false);
  expect((await request.get(list, { headers: session })).status()).toBe(401);
  expect(await signIn(playwright, baseURL!, created.email, 'Girassol-Trem-Azul-77')).not.toBeNull();

  const me = ((await (await request.get(apiPath(routes.listStaff), { headers })).json()) as { id: string; email: string }[]).find(
    (user) => user.email === STAFF.admin.email,
  )!;
  const demote = await request.put(apiPath(routes.updateStaff, { id: me.id }), { headers, data: { perfis: ['webhooks'] } });
  expect(((await demote.json()) as { errors: { field: string; pointer: string; code: string }[] }).errors).toEqual([
    expect.objectContaining({ field: 'perfis', pointer: '#/perfis', code: 'ownAdminRole' }),
  ]);
  // No role at all is refused with its own reason, not as a list size.
  const none = await request.put(apiPath(routes.updateStaff, { id: me.id }), { headers, data: { perfis: [] } });
  expect(((await none.json()) as { errors: { field: string; code: string; message: string }[] }).errors).toEqual([
    expect.objectContaining({ field: 'perfis', code: 'rolesRequired', message: expect.stringMatching(/^Marque pelo menos um perfil/) }),
  ]);
  const self = await request.put(apiPath(routes.updateStaff, { id: me.id }), { headers, data: { ativo: false } });
  expect(((await self.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe('disableSelf');
  // A malformed id is a 400 naming it, as for a webhook configuration; a well-formed unknown one, 404.
  for (const malformed of [
    request.put(apiPath(routes.updateStaff, { id: 'nao-e-um-uuid' }), { headers, data: { ativo: false } }),
    request.post(apiPath(routes.resetStaffPassword, { id: 'nao-e-um-uuid' }), { headers }),
  ]) {
    const refused = await malformed;
    expect(refused.status()).toBe(400);
    expect(((await refused.json()) as { errors: { field: string; code: string }[] }).errors).toEqual([
      expect.objectContaining({ field: 'id', code: 'uuid' }),
    ]);
  }
  const unknown = await request.put(apiPath(routes.updateStaff, { id: '00000000-0000-4000-8000-000000000000' }), {
    headers,
    data: { ativo: false },
  });
  expect(unknown.status()).toBe(404);
  // Not an admin: no administration at all.
  expect(
    (await request.get(apiPath(routes.listStaff), { headers: { cookie: await staffSessionCookie(STAFF.webhooks.email) } })).status(),
  ).toBe(403);
});

test('every staff user changes their own password, knowing the current one', async ({ request, baseURL, playwright }) => {
  const headers = await adminHeaders(baseURL);
  const created = (await (
    await request.post(apiPath(routes.createStaff), {
      headers,
      data: { email: 'trocar@e2e.exemplo.com.br', nome: 'Téo', perfis: ['scheduling'] },
    })
  ).json()) as { email: string; definicaoSenha: { link: string } };
  await request.post(apiPath(routes.setPasswordWithLink), {
    data: { token: tokenOf(created.definicaoSenha.link), senha: 'Girassol-Trem-Azul-77' },
  });
  const own = { cookie: await staffSessionCookie(created.email), origin: new URL(baseURL!).origin };
  const wrong = await request.post(apiPath(routes.changeOwnPassword), {
    headers: own,
    data: { senhaAtual: 'errada-errada', novaSenha: 'Outra-Senha-Muito-Boa-88' },
  });
  expect(((await wrong.json()) as { errors: { field: string }[] }).errors[0]?.field).toBe('senhaAtual');
  const changed = await request.post(apiPath(routes.changeOwnPassword), {
    headers: own,
    data: { senhaAtual: 'Girassol-Trem-Azul-77', novaSenha: 'Outra-Senha-Muito-Boa-88' },
  });
  expect(changed.status()).toBe(204);
  expect(await signIn(playwright, baseURL!, created.email, 'Outra-Senha-Muito-Boa-88')).toBeNull();
  expect(await signIn(playwright, baseURL!, created.email, 'Girassol-Trem-Azul-77')).not.toBeNull();
});
