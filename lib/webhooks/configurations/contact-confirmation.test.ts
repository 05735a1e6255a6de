import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSource } from '@/lib/db/migrations';
import { resetEnv } from '@/lib/testing/hooks';
import { migratedSqlite } from '@/lib/testing/sqlite';
import { confirmContactEmail, saveContactEmail } from '@/lib/webhooks/configurations/store/contact';
import { findWebhook, insertWebhook } from '@/lib/webhooks/configurations/store/configs';
import { WEBHOOK_EVENT_FLAGS } from '../events/types';
import { type WebhookConfiguration } from './contract';
import { CONTACT_LINK_HOURS, newContactLink } from './contact-confirmation';

/**
 * A technical contact's confirmation as stored (issue 43): a new address is unconfirmed, with its
 * link's token kept as a hash; the link confirms it once and only while it lives; another address
 * starts over. Migration 021_contact_confirmation adds the columns and takes them away again.
 */
describe('contact confirmation', () => {
  let database: Awaited<ReturnType<typeof migratedSqlite>>;
  beforeAll(async () => {
    process.env.AUTH_SECRET = 'unit-test-auth-secret-of-at-least-32-characters';
    resetEnv();
    database = await migratedSqlite();
  });
  afterAll(() => database.cleanup());

  const id = '5c0a7ac7-0000-4000-8000-000000000001';
  const config: WebhookConfiguration = {
    id,
    usuarioId: '7d4f1c2a-3b5e-4c6d-8e9f-0a1b2c3d4e5f',
    sistemaOrigem: 1,
    clientId: null,
    url: 'https://receptor.exemplo.com.br/hooks',
    headers: [],
    ...(Object.fromEntries(WEBHOOK_EVENT_FLAGS.map((flag) => [flag, false])) as Record<(typeof WEBHOOK_EVENT_FLAGS)[number], boolean>),
  };
  const hashOf = (link: ReturnType<typeof newContactLink>) => ({ tokenHash: link.tokenHash, expires: link.expires });

  it('confirms a new address once, only with its live link, and starts over for another address', async () => {
    const { db } = database;
    const now = Date.UTC(2031, 0, 1);
    await db.transaction((trx) => insertWebhook(trx, config));
    const link = newContactLink(now);
    expect(link.expires).toBe(now + CONTACT_LINK_HOURS * 3_600_000);
    expect(link.tokenHash).not.toContain(link.token);
    await db.transaction((trx) => saveContactEmail(trx, id, 'ti@parceiro.exemplo.com.br', hashOf(link)));
    expect(await findWebhook(db, id)).toMatchObject({ contactEmail: 'ti@parceiro.exemplo.com.br', contactConfirmed: false });
    // The token itself is never stored.
    expect(JSON.stringify(await db('webhook_configs').where({ id }).first())).not.toContain(link.token);

    expect(await confirmContactEmail(db, link.tokenHash, link.expires)).toBe(false); // expired
    expect(await confirmContactEmail(db, newContactLink(now).tokenHash, now)).toBe(false); // another link
    expect(await confirmContactEmail(db, link.tokenHash, now + 1000)).toBe(true);
    expect(await findWebhook(db, id)).toMatchObject({ contactConfirmed: true });
    expect(await confirmContactEmail(db, link.tokenHash, now + 2000)).toBe(false); // used

    const next = newContactLink(now);
    await db.transaction((trx) => saveContactEmail(trx, id, 'outro@parceiro.exemplo.com.br', hashOf(next)));
    expect(await findWebhook(db, id)).toMatchObject({ contactEmail: 'outro@parceiro.exemplo.com.br', contactConfirmed: false });
    await db.transaction((trx) => saveContactEmail(trx, id, null, null));
    expect(await findWebhook(db, id)).toMatchObject({ contactEmail: null, contactConfirmed: false });
  });

  it('migration 021_contact_confirmation goes down and up again', async () => {
    const { db } = database;
    await db.migrate.down({ migrationSource, name: '021_contact_confirmation' });
    expect(await db.schema.hasColumn('webhook_configs', 'contact_token_hash')).toBe(false);
    await db.migrate.latest({ migrationSource });
    expect(await db.schema.hasColumn('webhook_configs', 'contact_confirmed_at')).toBe(true);
  });
});
