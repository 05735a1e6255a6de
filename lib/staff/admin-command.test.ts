import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getDb } from '@/lib/db/handle';
import { verifySecret } from '@/lib/auth/passwords';
import { runAdminCommand } from './admin-command';
import { adviseFirstAdmin } from './first-admin';
import { findStaffByEmail, insertStaff, updateStaffRow } from '@/lib/staff/store';
import { setPasswordWithToken } from './service';
import { resetEnv, logTo } from '@/lib/testing/hooks';

/**
 * The create-admin command (issue 27 §9) on a real embedded database that starts with no accounts,
 * as a production start leaves it. The e2e spec (first-admin.spec.ts) runs the built command
 * against a running server, on SQLite and PostgreSQL; this covers the cases around it.
 */
async function run(args: string[], stdin?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdminCommand(args, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    readStdin: () => Promise.resolve(stdin),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

type AuditRow = { action: string; actor_id: string; outcome: string; after_json: string | null };
const auditOf = async (target: string) =>
  (await getDb())('audit_events').where({ target }).orderBy('at_ms').select<AuditRow[]>('action', 'actor_id', 'outcome', 'after_json');

/** The lines adviseFirstAdmin logs, as the server's start would. */
async function advice(): Promise<string[]> {
  const logged: string[] = [];
  process.env.LOG_SILENT = 'false';
  logTo({ write: (line: string) => void logged.push(line) });
  try {
    await adviseFirstAdmin(await getDb());
  } finally {
    process.env.LOG_SILENT = 'true';
    logTo(undefined);
  }
  return logged;
}

describe('npm run create-admin', () => {
  let dataDir = '';
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-create-admin-'));
    Object.assign(process.env, { DATA_DIR: dataDir, LOG_SILENT: 'true' });
    for (const name of ['DATABASE_URL', 'SEED_FILE', 'SEED_DEMO', 'NEXTAUTH_URL', 'SMTP_URL', 'OIDC_ISSUER']) delete process.env[name];
    resetEnv();
  });
  afterAll(async () => {
    await closeDb();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('says at start that there is no admin, and how to make one, until there is one', async () => {
    expect((await advice()).map((line) => JSON.parse(line) as { event: string; command: string })).toEqual([
      expect.objectContaining({ event: 'staff.no_admin', command: 'npm run create-admin -- --email <e-mail> --name <nome>' }),
    ]);
  });

  it('makes the first admin with a one-time link to the given console, audited as that account', async () => {
    const result = await run([
      '--email',
      'TI@Hospital.example',
      '--name',
      'Equipe de TI',
      '--url',
      'https://console.hospital.example/qualquer',
    ]);
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toContain('Conta de administrador criada: ti@hospital.example');
    const link = /https:\/\/console\.hospital\.example\/definir-senha\?token=([\w-]{43})$/m.exec(result.out);
    expect(link).not.toBeNull();

    const row = await findStaffByEmail(await getDb(), 'ti@hospital.example');
    expect(row).toMatchObject({ name: 'Equipe de TI', roles: 'admin', disabledAt: null });
    await setPasswordWithToken(link![1]!, 'Ponte-Estaiada-2026');
    expect(await verifySecret('Ponte-Estaiada-2026', (await findStaffByEmail(await getDb(), 'ti@hospital.example'))!.passwordHash)).toBe(
      true,
    );
    const trail = await auditOf('staff:ti@hospital.example');
    expect(trail).toEqual([expect.objectContaining({ action: 'staff.create', actor_id: 'ti@hospital.example', outcome: 'command-line' })]);
    expect(JSON.stringify(trail)).not.toContain(link![1]);

    expect(await advice()).toEqual([]);
  });

  it('makes an existing, disabled account an active admin, keeping its roles and, without a password given, its password', async () => {
    // The command closes the database when it is done, as its process ends: each step opens it again.
    await insertStaff(await getDb(), {
      id: crypto.randomUUID(),
      email: 'bruno@hospital.example',
      name: 'Bruno',
      roles: 'webhooks',
      createdAt: Date.now(),
    });
    const before = (await findStaffByEmail(await getDb(), 'bruno@hospital.example'))!;
    await updateStaffRow(await getDb(), before.id, { disabledAt: Date.now() });

    const result = await run(['--email', 'bruno@hospital.example']);
    expect(result.code).toBe(0);
    expect(result.out).toContain('A conta bruno@hospital.example já existia: agora é de administrador e está ativa.');
    expect(result.out).toMatch(/^http:\/\/localhost:3000\/definir-senha\?token=/m);
    const after = (await findStaffByEmail(await getDb(), 'bruno@hospital.example'))!;
    expect(after).toMatchObject({ roles: 'webhooks,admin', disabledAt: null, passwordHash: before.passwordHash, name: 'Bruno' });
    // Its sessions end (issue 43): the session version moved on, as after any other password path.
    expect(after.sessionVersion).toBe(before.sessionVersion + 1);
    expect((await auditOf('staff:bruno@hospital.example')).map((row) => [row.action, row.outcome])).toEqual([
      ['staff.update', 'command-line'],
      ['staff.password_link', 'issued'],
    ]);
  });

  it('sets a password from standard input only when it follows the console’s rules, voiding a pending link', async () => {
    const refused = await run(['--email', 'carla@hospital.example', '--password-stdin'], 'carla-2026-senha\n');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('Password refused: The password must not contain the part of the e-mail before the @.');
    expect(await findStaffByEmail(await getDb(), 'carla@hospital.example')).toBeUndefined();

    const withLink = await run(['--email', 'carla@hospital.example']);
    const token = /token=([\w-]{43})$/m.exec(withLink.out)![1]!;
    const set = await run(['--email', 'carla@hospital.example', '--password-stdin'], 'Cerrado-Ipe-Amarelo-31\n');
    expect(set.code).toBe(0);
    expect(set.out).toContain('Password set: sign in at http://localhost:3000/sign-in.');
    const row = (await findStaffByEmail(await getDb(), 'carla@hospital.example'))!;
    expect(row.sessionVersion).toBe(1);
    expect(await verifySecret('Cerrado-Ipe-Amarelo-31', row.passwordHash)).toBe(true);
    await expect(setPasswordWithToken(token, 'Outra-Senha-Bem-Longa-9')).rejects.toThrow(/passwordLinkInvalid/);

    const atTerminal = await run(['--email', 'carla@hospital.example', '--password-stdin'], undefined);
    expect(atTerminal.code).toBe(2);
  });

  it('leaves a single sign-on account to the identity provider', async () => {
    await insertStaff(await getDb(), {
      id: crypto.randomUUID(),
      email: 'sso@hospital.example',
      name: 'SSO',
      roles: 'scheduling',
      createdAt: Date.now(),
      ssoSubject: 'sub-1',
    });
    const result = await run(['--email', 'sso@hospital.example']);
    expect(result.code).toBe(1);
    expect(result.err).toContain('signs in through the identity provider');
    expect((await findStaffByEmail(await getDb(), 'sso@hospital.example'))!.roles).toBe('scheduling');
  });

  it('refuses bad arguments with the usage, naming the field in both languages', async () => {
    expect((await run([])).code).toBe(2);
    expect((await run(['--email', 'x@y.example', '--bogus'])).code).toBe(2);
    const bad = await run(['--email', 'sem-arroba']);
    expect(bad).toMatchObject({ code: 2, err: '--email: Formato inválido (email). / Invalid format (email).' });
    expect((await run(['--email', 'x@y.example', '--url', 'ftp://console'])).code).toBe(2);
    expect((await run(['--help'])).out).toContain('--password-stdin');
  });
});
