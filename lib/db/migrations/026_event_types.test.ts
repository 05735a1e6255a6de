import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, dropDatabase } from '@/e2e/support/databases';
import { migrationSource } from '@/lib/db/migrations';

/**
 * Migration 026 (issue 44): the flags' names in webhook_subscriptions.event_type and
 * webhook_events.tipo become event types, and back; the test and operational types stay as they are.
 * On SQLite, and on PostgreSQL when POSTGRES_TEST_URL is set (npm run test:unit:pg).
 */
const CONFIG = '26262626-0000-4000-8000-000000000001';
const OPERATOR = '26262626-0000-4000-8000-000000000002';

/** Rows as 025 left them: the three vocabularies in one column. */
const SUBSCRIPTIONS_BEFORE = [
  { config_id: CONFIG, event_type: 'eventoAvaliacaoSaudeAprovada' },
  { config_id: CONFIG, event_type: 'eventoPropostaCancelada' },
  { config_id: CONFIG, event_type: 'eventoAgendamentoOfertaExpirada' },
  { config_id: OPERATOR, event_type: 'entrega.esgotada' },
];
const EVENTS_BEFORE = [
  { id: 'evt_1', tipo: 'eventoAvaliacaoSaudeAguardandoAprovacao' },
  { id: 'evt_2', tipo: 'eventoAgendamentoReservado' },
  { id: 'evt_3', tipo: 'webhook.teste' },
  { id: 'evt_4', tipo: 'configuracao.desativada' },
  { id: 'evt_5', tipo: 'eventoAvaliacaoSaudeDesarquivada' },
];

function migrationCases(open: () => Promise<Knex>) {
  let db: Knex;
  beforeAll(async () => {
    db = await open();
    await db.migrate.latest({ migrationSource });
    await db.migrate.down({ migrationSource, name: '026_event_types' });
    await db('webhook_subscriptions').insert(SUBSCRIPTIONS_BEFORE);
    await db('webhook_events').insert(
      EVENTS_BEFORE.map(({ id, tipo }, index) => ({
        id,
        tipo,
        producer: 'migracao',
        id_evento: `e-${index}`,
        usuario_id: CONFIG,
        dados_json: '{}',
        created_at: index,
      })),
    );
  });
  afterAll(() => db.destroy());

  const subscriptions = async () =>
    (await db('webhook_subscriptions').whereIn('config_id', [CONFIG, OPERATOR]).orderBy(['config_id', 'event_type'])).map(
      (row: Record<string, unknown>) => `${String(row.config_id).slice(-1)} ${String(row.event_type)}`,
    );
  const events = async () => (await db('webhook_events').orderBy('id').pluck('tipo')).map(String);

  it('stores event types in place of the flags’ names, the test and operational types untouched', async () => {
    await db.migrate.latest({ migrationSource });
    expect(await subscriptions()).toEqual([
      '1 agendamento.oferta-expirada',
      '1 avaliacao-saude.aprovada',
      '1 proposta.cancelada',
      '2 entrega.esgotada',
    ]);
    expect(await events()).toEqual([
      'avaliacao-saude.aguardando-aprovacao',
      'agendamento.reservado',
      'webhook.teste',
      'configuracao.desativada',
      'avaliacao-saude.desarquivada',
    ]);
  });

  it('gives the flags’ names back on the way down', async () => {
    await db.migrate.down({ migrationSource, name: '026_event_types' });
    expect(await subscriptions()).toEqual([
      '1 eventoAgendamentoOfertaExpirada',
      '1 eventoAvaliacaoSaudeAprovada',
      '1 eventoPropostaCancelada',
      '2 entrega.esgotada',
    ]);
    expect(await events()).toEqual(EVENTS_BEFORE.map(({ tipo }) => tipo));
    await db.migrate.latest({ migrationSource });
  });
}

describe('migration 026: event types in the event columns, on SQLite', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-026-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  migrationCases(async () =>
    knex({ client: 'better-sqlite3', connection: { filename: path.join(dir, 'test.sqlite') }, useNullAsDefault: true }),
  );
});

/** Opt-in: POSTGRES_TEST_URL=postgres://postgres@127.0.0.1:5432/postgres (a fresh database is created and dropped). */
const adminUrl = process.env.POSTGRES_TEST_URL;

describe.skipIf(!adminUrl)('migration 026: event types in the event columns, on PostgreSQL (POSTGRES_TEST_URL)', () => {
  let databaseUrl = '';
  afterAll(async () => {
    if (databaseUrl) await dropDatabase(adminUrl ?? '', databaseUrl);
  });
  migrationCases(async () => {
    databaseUrl = await createDatabase(adminUrl ?? '', 'migration_026');
    return knex({ client: 'pg', connection: databaseUrl });
  });
});
