import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSource } from '@/lib/db/migrations';
import { migratedPostgres } from '@/lib/testing/postgres';
import { migratedSqlite } from '@/lib/testing/sqlite';
import { resetEnv } from '@/lib/testing/hooks';
import { findWebhook, insertWebhook, saveBrokerCredentials } from '@/lib/webhooks/configurations/store/configs';
import { decryptCredentials, encryptCredentials } from './broker-credentials';
import { WEBHOOK_EVENT_FLAGS } from '../events/types';
import { type WebhookConfiguration } from './contract';
import { decryptSigningSecret, encryptSigningSecret, generateWebhookSecret } from './secrets';

/**
 * Every stored ciphertext bound to its purpose and its configuration (issue 43): one with write
 * access to the database but not the key moves a broker password into a signing-secret column, or
 * one configuration's secret into another's row, and gets a failure instead of the clear text.
 * Migration 020_bound_ciphertexts seals the values stored before (unbound) that way, and back, on
 * SQLite and, with POSTGRES_TEST_URL (npm run test:unit:pg), on PostgreSQL.
 */
const X = 'c1a55e00-0000-4000-8000-000000000001';
const Y = 'c1a55e00-0000-4000-8000-000000000002';
const LOGIN = { usuario: 'parceiro', senha: 'senha-do-broker-9f3a' };

beforeAll(() => {
  process.env.AUTH_SECRET = 'unit-test-auth-secret-of-at-least-32-characters';
  resetEnv();
});

describe('bound ciphertexts', () => {
  it('open only for the purpose and configuration they were sealed for', () => {
    const secret = generateWebhookSecret();
    const sealedSecret = encryptSigningSecret(X, secret);
    const sealedLogin = encryptCredentials(X, LOGIN);
    expect(decryptSigningSecret(X, sealedSecret)).toBe(secret);
    expect(decryptCredentials(X, sealedLogin)).toEqual(LOGIN);
    // A login moved into a signing-secret column, a secret into a login column, either into another row.
    expect(() => decryptSigningSecret(X, sealedLogin)).toThrow();
    expect(() => decryptCredentials(X, sealedSecret)).toThrow();
    expect(() => decryptSigningSecret(Y, sealedSecret)).toThrow();
    expect(() => decryptCredentials(Y, sealedLogin)).toThrow();
  });
});

const adminUrl = process.env.POSTGRES_TEST_URL;
type Database = Awaited<ReturnType<typeof migratedSqlite>>;

describe.each([
  { name: 'SQLite', open: migratedSqlite, skip: false },
  { name: 'PostgreSQL', open: () => migratedPostgres(adminUrl ?? '', 'bound'), skip: !adminUrl },
])('migration 020_bound_ciphertexts on $name', ({ open, skip }) => {
  let database: Database;
  beforeAll(async () => {
    if (!skip) database = await open();
  });
  afterAll(async () => {
    if (!skip) await database.cleanup();
  });

  const config = (id: string): WebhookConfiguration => ({
    id,
    usuarioId: '7d4f1c2a-3b5e-4c6d-8e9f-0a1b2c3d4e5f',
    sistemaOrigem: 1,
    clientId: null,
    url: 'amqps://broker.exemplo.com.br/?routingKey=k',
    headers: [],
    ...(Object.fromEntries(WEBHOOK_EVENT_FLAGS.map((flag) => [flag, false])) as Record<(typeof WEBHOOK_EVENT_FLAGS)[number], boolean>),
  });
  type Sealed = { secret_enc: string; previous_secret_enc: string | null; broker_credentials_enc: string | null };
  const sealed = async (id: string): Promise<Sealed> =>
    database.db('webhook_configs').where({ id }).first<Sealed>('secret_enc', 'previous_secret_enc', 'broker_credentials_enc');

  it.skipIf(skip)(
    'seals unbound values bound, leaves an unreadable one as it was, and seals them unbound again on the way down',
    async () => {
      const { db } = database;
      await db.transaction(async (trx) => {
        for (const id of [X, Y]) await insertWebhook(trx, config(id));
        await saveBrokerCredentials(trx, X, encryptCredentials(X, LOGIN));
      });
      const secretX = decryptSigningSecret(X, (await sealed(X)).secret_enc);
      const previousX = generateWebhookSecret();
      await db('webhook_configs')
        .where({ id: X })
        .update({ previous_secret_enc: encryptSigningSecret(X, previousX) });

      // Before the migration: every value unbound (v1).
      await db.migrate.down({ migrationSource, name: '020_bound_ciphertexts' });
      const unbound = await sealed(X);
      for (const value of Object.values(unbound)) expect(value).toMatch(/^v1:/);
      expect(() => decryptSigningSecret(X, unbound.secret_enc)).toThrow(); // the code reads bound values only
      await db('webhook_configs').where({ id: Y }).update({ previous_secret_enc: 'v1:x:y:z' }); // sealed under another AUTH_SECRET

      await db.migrate.latest({ migrationSource });
      const bound = await sealed(X);
      for (const value of Object.values(bound)) expect(value).toMatch(/^v2:/);
      expect(decryptSigningSecret(X, bound.secret_enc)).toBe(secretX);
      expect(decryptSigningSecret(X, bound.previous_secret_enc!)).toBe(previousX);
      expect(decryptCredentials(X, bound.broker_credentials_enc)).toEqual(LOGIN);
      expect((await sealed(Y)).previous_secret_enc).toBe('v1:x:y:z');

      // After it, a value moved by someone without the key opens nowhere but in its own place.
      await db('webhook_configs').where({ id: X }).update({ secret_enc: bound.broker_credentials_enc });
      const movedIntoX = (await sealed(X)).secret_enc;
      expect(() => decryptSigningSecret(X, movedIntoX)).toThrow();
      await db('webhook_configs')
        .where({ id: Y })
        .update({ secret_enc: bound.secret_enc, broker_credentials_enc: bound.broker_credentials_enc });
      const stored = (await findWebhook(db, Y))!;
      const movedIntoY = (await sealed(Y)).secret_enc;
      expect(() => decryptSigningSecret(Y, movedIntoY)).toThrow();
      expect(() => decryptCredentials(Y, stored.brokerCredentialsEnc)).toThrow();

      // Down again: unbound values that open as before.
      await db('webhook_configs').where({ id: X }).update(bound);
      await db.migrate.down({ migrationSource, name: '020_bound_ciphertexts' });
      expect((await sealed(X)).secret_enc).toMatch(/^v1:/);
      await db.migrate.latest({ migrationSource });
      expect(decryptSigningSecret(X, (await sealed(X)).secret_enc)).toBe(secretX);
    },
  );
});
