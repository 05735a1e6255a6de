import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { signInWithPassword } from '../support/api';
import { freePort, newDataDir } from '../support/server';

/**
 * Issue 27 §12: the README's start command, run for real (`bash scripts/start.sh`), stopped and run
 * again, as a new user would. Its DATA_DIR is relative, as a user would type it, and must mean the
 * folder they ran the command from. The demo's webhook edit, a reservation and a staff session made
 * before the stop are all there after it (the session proves the generated secret survived), and
 * the second start neither installs nor builds.
 */
const DEMO_CLIENT = { clientId: 'portal-parceiro', clientSecret: 'segredo-demo-portal-2026' };
const DEMO_ADMIN = { email: 'admin@clinica.exemplo.com.br', password: 'Admin#2026' };
const DEMO_WEBHOOK = '3f2a9c1e-5b7d-4e8f-a1b2-c3d4e5f6a7b8';

type Started = { child: ChildProcess; output: () => string; url: string; seconds: number };

/** `PORT=… DATA_DIR=dados-demo bash scripts/start.sh` from `cwd`, ready when /api/health answers 200. */
async function startCommand(cwd: string, port: number): Promise<Started> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: 'dados-demo' };
  // Nothing of the test run's own configuration: the command as a user starts it.
  for (const name of ['DATABASE_URL', 'SEED_FILE', 'SEED_DEMO', 'AUTH_SECRET', 'NODE_ENV', 'HOSTNAME', 'TRUSTED_PROXIES']) delete env[name];
  const started = Date.now();
  const child = spawn('bash', [path.resolve('scripts/start.sh')], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the start command exited early:\n${output}`);
    const status = await fetch(`${url}/api/health`).then(
      (answer) => answer.status,
      () => 0,
    );
    if (status === 200) return { child, output: () => output, url, seconds: (Date.now() - started) / 1000 };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`the start command did not become ready:\n${output}`);
}

/** SIGTERM, as a deploy or Ctrl-C would stop it; answers the exit code. */
async function stop(started: Started): Promise<number | null> {
  if (started.child.exitCode !== null) return started.child.exitCode;
  const exited = new Promise<number | null>((resolve) => started.child.once('exit', (code) => resolve(code)));
  started.child.kill('SIGTERM');
  return exited;
}

async function bearerOf(api: APIRequestContext): Promise<Record<string, string>> {
  const answer = await api.post(apiPath(routes.issueToken), {
    form: { grant_type: 'client_credentials', client_id: DEMO_CLIENT.clientId, client_secret: DEMO_CLIENT.clientSecret },
  });
  expect(answer.status()).toBe(200);
  return { authorization: `Bearer ${((await answer.json()) as { access_token: string }).access_token}` };
}

const reserveBody = (nrSeqAgenda: number, cdPessoaFisica: number, release?: string) => ({
  nrSeqAgenda,
  nrSeqProcInterno: 50102,
  nrMinDuracao: 30,
  ieOpcao: release ? 'CR' : 'R',
  ...(release ? { tokenReservaCanc: release } : {}),
  cdPessoaFisica,
  cdConvenio: 12,
  cdCategoria: 1,
  cdPlano: 3,
  cdUsuarioConvenio: '0012345678901',
  nmUsuario: 'portal-parceiro',
});

test('the README’s start command keeps an edit, a reservation and a session across a restart, without rebuilding', async ({
  playwright,
}) => {
  // The command runs the embedded default whatever this run's server is: once, in the plain run.
  test.skip(Boolean(process.env.E2E_DATABASE_URL || process.env.E2E_API_SERVER), 'the start command ignores the run’s server settings');
  test.setTimeout(240_000);
  // A stale build would make the command rebuild .next under the run's shared server.
  const check = spawnSync(process.execPath, ['scripts/build-inputs.mjs', 'check'], { encoding: 'utf8' });
  expect(check.status, `run \`npm run build\` before the e2e specs (${check.stdout.trim()})`).toBe(0);
  const cwd = newDataDir('start-command');
  const port = await freePort();

  const first = await startCommand(cwd, port);
  let second: Started | undefined;
  const api = await playwright.request.newContext({ baseURL: first.url });
  try {
    // The demo is there: its client, its configuration, its admin.
    const auth = await bearerOf(api);
    const url = `https://hooks.parceiro.exemplo.com.br/reinicio-${randomBytes(4).toString('hex')}`;
    const edited = await api.put(apiPath(routes.updateWebhookConfiguration, { id: DEMO_WEBHOOK }), {
      headers: auth,
      data: { url, headers: [{ chave: 'X-Api-Key', valor: 'antes-do-reinicio' }] },
    });
    expect(edited.status()).toBe(200);
    const free = (await (await api.get(`${apiPath(routes.listFreeSlots)}?cdAgenda=102&limite=1`, { headers: auth })).json()) as {
      NR_SEQ_AGENDA: number;
    }[];
    const slot = free[0]!.NR_SEQ_AGENDA;
    const reserved = (await (
      await api.post(apiPath(routes.reserveOrReleaseSlot), { headers: auth, data: reserveBody(slot, 123456) })
    ).json()) as {
      CODIGO_P: string;
      TOKEN_RESERVA_P: string;
    };
    expect(reserved.CODIGO_P).toBe('0');
    expect(await signInWithPassword(api, DEMO_ADMIN.email, DEMO_ADMIN.password)).toBeNull();
    expect((await api.get(apiPath(routes.listStaff))).status()).toBe(200);
    const session = await api.storageState();

    // Where the user asked for it, relative to the folder they ran the command from.
    expect(fs.existsSync(path.join(cwd, 'dados-demo', 'integration-console.sqlite'))).toBe(true);
    expect(fs.existsSync(path.join(cwd, 'dados-demo', 'auth-secret'))).toBe(true);

    expect(await stop(first)).toBe(0);
    second = await startCommand(cwd, port);
    test.info().annotations.push({ type: 'restart', description: `ready ${second.seconds.toFixed(1)} s after the command started` });
    expect(second.output()).toContain('== npm packages up to date');
    expect(second.output()).toContain('== build up to date');
    expect(second.output()).not.toContain('next build');
    expect(second.output()).not.toContain('seed.demo_credentials_open'); // the demo was asked for

    // The session from before the stop still opens the console: the generated secret was kept.
    const sameSession = await playwright.request.newContext({ baseURL: second.url, storageState: session });
    try {
      expect((await sameSession.get(apiPath(routes.listStaff))).status()).toBe(200);
    } finally {
      await sameSession.dispose();
    }
    const again = await bearerOf(api);
    const config = (await (await api.get(apiPath(routes.getWebhookConfiguration, { id: DEMO_WEBHOOK }), { headers: again })).json()) as {
      url: string;
      headers: { chave: string }[];
    };
    expect(config.url).toBe(url);
    expect(config.headers.map((header) => header.chave)).toEqual(['X-Api-Key']);
    // The slot is still held: another beneficiary cannot take it, and the token from before releases it.
    const taken = (await (
      await api.post(apiPath(routes.reserveOrReleaseSlot), { headers: again, data: reserveBody(slot, 654321) })
    ).json()) as {
      CODIGO_P: string;
    };
    expect(taken.CODIGO_P).toBe('2');
    const released = (await (
      await api.post(apiPath(routes.reserveOrReleaseSlot), { headers: again, data: reserveBody(slot, 123456, reserved.TOKEN_RESERVA_P) })
    ).json()) as { CODIGO_P: string };
    expect(released.CODIGO_P).toBe('1');
  } finally {
    await api.dispose();
    await stop(first);
    if (second) await stop(second);
  }
});
