import type { Migration } from './migration';

/**
 * Event subscriptions as data (issue 28): a row per configuration and event it receives, in place
 * of a boolean column per event, so a new event type needs no migration. `event_type` holds the
 * contract's flag name (eventoAvaliacaoSaudeAprovada…), the publish's `tipo`. The names and columns
 * below are the shipped ones of 001, written out: a shipped migration does not change with the code.
 */
const SUBSCRIPTION_COLUMNS: Record<string, string> = {
  eventoAvaliacaoSaudeAprovada: 'ev_aprovada',
  eventoAvaliacaoSaudeAguardandoAprovacao: 'ev_aguardando',
  eventoAvaliacaoSaudeArquivada: 'ev_arquivada',
  eventoAvaliacaoSaudeDesarquivada: 'ev_desarquivada',
  eventoPropostaCancelada: 'ev_proposta_cancelada',
};

export const webhookSubscriptions: Migration = {
  async up(db) {
    await db.schema.createTable('webhook_subscriptions', (t) => {
      t.string('config_id', 36).notNullable();
      t.string('event_type', 60).notNullable();
      t.primary(['config_id', 'event_type']);
    });
    for (const [eventType, column] of Object.entries(SUBSCRIPTION_COLUMNS)) {
      await db.raw('insert into ?? (??, ??) select ??, ? from ?? where ?? = ?', [
        'webhook_subscriptions',
        'config_id',
        'event_type',
        'id',
        eventType,
        'webhook_configs',
        column,
        true,
      ]);
    }
    await db.schema.alterTable('webhook_configs', (t) => t.dropColumns(...Object.values(SUBSCRIPTION_COLUMNS)));
  },
  async down(db) {
    await db.schema.alterTable('webhook_configs', (t) => {
      for (const column of Object.values(SUBSCRIPTION_COLUMNS)) t.boolean(column).notNullable().defaultTo(false);
    });
    for (const [eventType, column] of Object.entries(SUBSCRIPTION_COLUMNS)) {
      await db('webhook_configs')
        .whereIn('id', db('webhook_subscriptions').where({ event_type: eventType }).select('config_id'))
        .update({ [column]: true });
    }
    await db.schema.dropTableIfExists('webhook_subscriptions');
  },
};
