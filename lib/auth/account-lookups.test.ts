import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encode } from 'next-auth/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb } from '@/lib/db/handle';
import { resetEnv } from '@/lib/testing/hooks';
import { registerAccountLookups, type StaffAccount } from './account-lookups';
import { clientIsActive } from './client-state';
import { signingSecret } from './signing-secret';
import { staffFromSession } from './staff-session';

/**
 * Authentication checks accounts through the lookups the composition root registers
 * (lib/api/callers.ts). This file imports no composition root: until it registers lookups itself,
 * none are (test files run in processes of their own).
 */
const saved = { ...process.env };
beforeAll(() => {
  process.env.AUTH_SECRET = 'a-test-secret-that-is-long-enough-for-hs256-0123456789';
  // The checks open the database handle to pass it on, though these lookups read no table.
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-account-lookups-'));
  delete process.env.DATABASE_URL;
  resetEnv();
});
afterAll(async () => {
  await closeDb();
  process.env = { ...saved };
  resetEnv();
});

const account: StaffAccount = {
  id: 'u-1',
  email: 'ana@hospital.example',
  name: 'Ana',
  roles: 'webhooks',
  disabledAt: null,
  ssoSubject: null,
  sessionVersion: 2,
};

async function sessionRequest(sessionVersion: number): Promise<Request> {
  const token = await encode({ token: { sub: account.id, sessionId: 's-1', sessionVersion }, secret: signingSecret() });
  return new Request('http://localhost/api/v1/conta', { headers: { cookie: `next-auth.session-token=${token}` } });
}

describe('account lookups', () => {
  it('fail the check, loudly, while none are registered: no token or session passes unchecked', async () => {
    await expect(clientIsActive('parceiro')).rejects.toThrow(/no account lookups registered/);
    await expect(staffFromSession(await sessionRequest(2))).rejects.toThrow(/no account lookups registered/);
  });

  it('decide, once registered, whether a client and a session still stand', async () => {
    const accounts = new Map<string, StaffAccount>([[account.id, account]]);
    const clients = new Map([
      ['ativo', { revokedAt: null }],
      ['revogado', { revokedAt: 1 }],
    ]);
    registerAccountLookups({
      apiClient: (_db, clientId) => Promise.resolve(clients.get(clientId)),
      staffAccount: (_db, userId) => Promise.resolve(accounts.get(userId)),
    });
    expect(await clientIsActive('ativo')).toBe(true);
    expect(await clientIsActive('revogado')).toBe(false);
    expect(await clientIsActive('desconhecido')).toBe(false);
    expect(await staffFromSession(await sessionRequest(2))).toMatchObject({ kind: 'staff', userId: 'u-1', roles: ['webhooks'] });
    // A password change bumped the version: the older session ends. A disabled account's sessions end.
    expect(await staffFromSession(await sessionRequest(1))).toBeUndefined();
    accounts.set(account.id, { ...account, disabledAt: Date.now() });
    expect(await staffFromSession(await sessionRequest(2))).toBeUndefined();
  });
});
