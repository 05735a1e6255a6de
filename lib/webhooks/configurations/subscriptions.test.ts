import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSource } from '@/lib/db/migrations';
import { migratedSqlite } from '@/lib/testing/sqlite';
import { findWebhook, insertWebhook, saveWebhook } from '@/lib/webhooks/configurations/store/configs';
import { WEBHOOK_EVENT_FLAGS } from '../events/types';
import { type WebhookConfiguration } from './contract';

/** Event subscriptions as rows (issue 28): a configuration's flags read and written through them as event types (issue 44), and migrated from the columns. */
describe('event subscriptions', () => {
  let database: Awaited<ReturnType<typeof migratedSqlite>>;
  beforeAll(async () => {
    database = await migratedSqlite();
  });
  afterAll(() => database.cleanup());

  const config = (id: string, on: string[]): WebhookConfiguration => ({
    id,
    usuarioId: '7d4f1c2a-3b5e-4c6d-8e9f-0a1b2c3d4e5f',
    sistemaOrigem: 1,
    clientId: null,
    url: 'https://receptor.exemplo.com.br/hooks',
    headers: [],
    ...(Object.fromEntries(WEBHOOK_EVENT_FLAGS.map((flag) => [flag, on.includes(flag)])) as Record<
      (typeof WEBHOOK_EVENT_FLAGS)[number],
      boolean
    >),
  });

  it('reads and writes each flag as whether its row exists', async () => {
    const { db } = database;
    const id = '11111111-0000-4000-8000-000000000001';
    await db.transaction((trx) => insertWebhook(trx, config(id, ['eventoPropostaCancelada', 'eventoAvaliacaoSaudeArquivada'])));
    expect(await db('webhook_subscriptions').where({ config_id: id }).orderBy('event_type').pluck('event_type')).toEqual([
      'avaliacao-saude.arquivada',
      'proposta.cancelada',
    ]);
    const stored = await findWebhook(db, id);
    expect(stored?.config).toMatchObject({
      eventoPropostaCancelada: true,
      eventoAvaliacaoSaudeArquivada: true,
      eventoAvaliacaoSaudeAprovada: false,
    });
    expect(await db.transaction((trx) => saveWebhook(trx, config(id, ['eventoAvaliacaoSaudeAprovada']), stored!.version))).toBe(true);
    expect(await db('webhook_subscriptions').where({ config_id: id }).pluck('event_type')).toEqual(['avaliacao-saude.aprovada']);
  });

  /** Back to the flag columns: 026 (which renames the rows' flags to event types) undone first, so both run again at latest. */
  const beforeSubscriptions = async (db: typeof database.db) => {
    await db.migrate.down({ migrationSource, name: '026_event_types' });
    await db.migrate.down({ migrationSource, name: '015_webhook_subscriptions' });
  };

  it('are migrated from the flag columns, and back', async () => {
    const { db } = database;
    await beforeSubscriptions(db);
    const id = '11111111-0000-4000-8000-000000000002';
    await db('webhook_configs').insert({
      id,
      usuario_id: '7d4f1c2a-3b5e-4c6d-8e9f-0a1b2c3d4e5f',
      sistema_origem: 1,
      url: 'https://antigo.exemplo.com.br/hooks',
      headers_json: '[]',
      ev_aprovada: true,
      ev_aguardando: false,
      ev_arquivada: false,
      ev_desarquivada: true,
      ev_proposta_cancelada: false,
      version: 1,
      updated_at: 1,
      enabled: true,
      secret_enc: 'v1:x:y:z',
    });
    await db.migrate.latest({ migrationSource });
    expect((await findWebhook(db, id))?.config).toMatchObject({
      eventoAvaliacaoSaudeAprovada: true,
      eventoAvaliacaoSaudeAguardandoAprovacao: false,
      eventoAvaliacaoSaudeArquivada: false,
      eventoAvaliacaoSaudeDesarquivada: true,
      eventoPropostaCancelada: false,
    });
    expect(await db.schema.hasColumn('webhook_configs', 'ev_aprovada')).toBe(false);
    await beforeSubscriptions(db);
    expect(await db('webhook_configs').where({ id }).first('ev_aprovada', 'ev_desarquivada', 'ev_arquivada')).toEqual({
      ev_aprovada: 1,
      ev_desarquivada: 1,
      ev_arquivada: 0,
    });
    await db.migrate.latest({ migrationSource });
  });
});
