import { spawn } from 'node:child_process';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { signInWithPassword } from '../support/api';
import { privateDatabase } from '../support/databases';
import { newDataDir, startServer } from '../support/server';

/**
 * Issue 27 §9: a production start (`npm start`, the container image's command) seeds nothing unless
 * asked to. The public demo credentials are refused, the log says how to make the first admin, and
 * the documented command (`npm run create-admin`) makes one against the server's own database: the
 * embedded file, or PostgreSQL in `npm run test:e2e:pg` (a database of this spec's own, empty).
 */
const DEMO_CLIENTS = [
  { clientId: 'portal-parceiro', clientSecret: 'segredo-demo-portal-2026' },
  { clientId: 'avaliacao-saude', clientSecret: 'segredo-demo-eventos-2026' },
];
const DEMO_ADMIN = { email: 'admin@clinica.exemplo.com.br', password: 'Admin#2026' };

/** The README's command, run as an operator would, with the server's database settings. */
function createAdmin(
  args: string[],
  env: Record<string, string>,
  stdin?: string,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'create-admin', '--', ...args], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out, err }));
    child.stdin.end(stdin ?? '');
  });
}

async function demoCredentialsRefused(api: APIRequestContext): Promise<void> {
  for (const client of DEMO_CLIENTS) {
    const answer = await api.post(apiPath(routes.issueToken), {
      form: { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret },
    });
    expect(answer.status(), client.clientId).toBe(401);
  }
  expect(await signInWithPassword(api, DEMO_ADMIN.email, DEMO_ADMIN.password)).not.toBeNull();
}

test('npm start seeds nothing; the log names the command, which makes the first admin with a one-time link', async ({ playwright }) => {
  test.setTimeout(120_000);
  const database = await privateDatabase('first_admin');
  const dataDir = newDataDir('first-admin');
  const settings = { DATA_DIR: dataDir, ...database.env };
  const server = await startServer({ dataDir, seed: false, env: database.env });
  const api = await playwright.request.newContext({ baseURL: server.url });
  try {
    await demoCredentialsRefused(api);
    const advice = server
      .logs()
      .split('\n')
      .find((line) => line.includes('"staff.no_admin"'));
    expect(advice).toContain('npm run create-admin -- --email');
    expect((await api.get(apiPath(routes.listStaff))).status()).toBe(401);

    const created = await createAdmin(['--email', 'Olga.Ops@Hospital.example', '--name', 'Olga Ops', '--url', server.url], settings);
    expect(created.err).toBe('');
    expect(created.code).toBe(0);
    expect(created.out).toContain('Conta de administrador criada: olga.ops@hospital.example');
    expect(created.out).toContain('Admin account created: olga.ops@hospital.example');
    const link = /^(http:\/\/\S+\/definir-senha\?token=\S+)$/m.exec(created.out)?.[1];
    expect(link?.startsWith(`${server.url}/definir-senha?token=`)).toBe(true);
    const token = new URL(link!).searchParams.get('token')!;

    // The link sets the password once, through the console's own endpoint; then the admin signs in and administers.
    expect((await api.post(apiPath(routes.setPasswordWithLink), { data: { token, senha: 'Farol-Azul-Marinho-42' } })).status()).toBe(204);
    expect(await signInWithPassword(api, 'olga.ops@hospital.example', 'Farol-Azul-Marinho-42')).toBeNull();
    const staff = (await (await api.get(apiPath(routes.listStaff))).json()) as { email: string; perfis: string[]; ativo: boolean }[];
    expect(staff).toEqual([expect.objectContaining({ email: 'olga.ops@hospital.example', perfis: ['admin'], ativo: true })]);
    const trail = (await (await api.get(`${apiPath(routes.listAuditTrail)}?alvo=staff:olga.ops@hospital.example`)).json()) as {
      acao: string;
      ator: string;
      resultado: string;
    }[];
    expect(trail).toEqual([
      expect.objectContaining({ acao: 'staff.create', ator: 'olga.ops@hospital.example', resultado: 'command-line' }),
    ]);
    expect(JSON.stringify(trail)).not.toContain(token);

    // Run again for the same address with a password on standard input: the password is checked by
    // the console's rules, then replaces the old one; the account stays the one admin.
    const weak = await createAdmin(['--email', 'olga.ops@hospital.example', '--password-stdin'], settings, 'curta\n');
    expect(weak.code).toBe(1);
    expect(weak.err).toContain('Senha recusada: A senha precisa ter pelo menos 12 caracteres.');
    expect((await api.get(apiPath(routes.listStaff))).status()).toBe(200);
    const again = await createAdmin(['--email', 'olga.ops@hospital.example', '--password-stdin'], settings, 'Outro-Farol-Verde-77\n');
    expect(again.code).toBe(0);
    expect(again.out).toContain('The account olga.ops@hospital.example existed already: it is now an active admin.');
    // The way back in after a lockout ends every session of the account (issue 43): the console's
    // session signed in with the old password is over.
    expect((await api.get(apiPath(routes.listStaff))).status()).toBe(401);
    expect(await signInWithPassword(api, 'olga.ops@hospital.example', 'Farol-Azul-Marinho-42')).not.toBeNull();
    expect(await signInWithPassword(api, 'olga.ops@hospital.example', 'Outro-Farol-Verde-77')).toBeNull();
    expect(((await (await api.get(apiPath(routes.listStaff))).json()) as unknown[]).length).toBe(1);
    // A new link (no password given) ends them too.
    const relinked = await createAdmin(['--email', 'olga.ops@hospital.example', '--url', server.url], settings);
    expect(relinked.code).toBe(0);
    expect((await api.get(apiPath(routes.listStaff))).status()).toBe(401);

    const bad = await createAdmin(['--email', 'sem-arroba'], settings);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--email:');
  } finally {
    await api.dispose();
    await server.stop();
    await database.drop();
  }
});

test('the container image’s command seeds no demo either, on an empty embedded database', async ({ playwright }) => {
  const dataDir = newDataDir('no-demo-container');
  const server = await startServer({ dataDir, seed: false, entry: 'container', env: { DATABASE_URL: '' } });
  const api = await playwright.request.newContext({ baseURL: server.url });
  try {
    await demoCredentialsRefused(api);
    expect(server.logs()).toContain('"staff.no_admin"');
  } finally {
    await api.dispose();
    await server.stop();
  }
});

/**
 * A volume the demo seeded (as the embedded default and the image did before issue 27) keeps its
 * public credentials: a start that no longer asks for the demo names those that still work.
 */
test('a start without SEED_DEMO on a database the demo seeded names the public credentials still open', async () => {
  const dataDir = newDataDir('demo-volume');
  const demo = await startServer({ dataDir, seed: false, env: { SEED_DEMO: 'true', DATABASE_URL: '' } });
  expect(demo.logs()).not.toContain('seed.demo_credentials_open');
  await demo.stop();
  const later = await startServer({ dataDir, port: demo.port, seed: false, entry: 'container', env: { DATABASE_URL: '' } });
  try {
    const warning = later
      .logs()
      .split('\n')
      .find((line) => line.includes('"seed.demo_credentials_open"'));
    expect(warning).toContain('portal-parceiro app-corretora avaliacao-saude admin@clinica.exemplo.com.br');
    expect(warning).not.toContain('segredo-demo');
    expect(later.logs()).not.toContain('"staff.no_admin"');
  } finally {
    await later.stop();
  }
});
