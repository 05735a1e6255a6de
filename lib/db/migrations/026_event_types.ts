import type { Knex } from 'knex';
import type { Migration } from './migration';

/**
 * One vocabulary in the event columns (issue 44): webhook_subscriptions.event_type and
 * webhook_events.tipo held a flag's name (eventoAvaliacaoSaudeAprovada) for the flags' events, and
 * the type itself for the test and operational events, translated on read. They now hold the event
 * type a receiver sees (avaliacao-saude.aprovada) for every event. The pairs are the shipped ones of
 * lib/webhooks/events/types.ts today, written out: a shipped migration does not change with the code.
 */
const EVENT_TYPE_OF_FLAG: Record<string, string> = {
  eventoAvaliacaoSaudeAprovada: 'avaliacao-saude.aprovada',
  eventoAvaliacaoSaudeAguardandoAprovacao: 'avaliacao-saude.aguardando-aprovacao',
  eventoAvaliacaoSaudeArquivada: 'avaliacao-saude.arquivada',
  eventoAvaliacaoSaudeDesarquivada: 'avaliacao-saude.desarquivada',
  eventoPropostaCancelada: 'proposta.cancelada',
  eventoAgendamentoReservado: 'agendamento.reservado',
  eventoAgendamentoLiberado: 'agendamento.liberado',
  eventoAgendamentoOfertado: 'agendamento.ofertado',
  eventoAgendamentoOfertaExpirada: 'agendamento.oferta-expirada',
};

const COLUMNS = [
  { table: 'webhook_subscriptions', column: 'event_type' },
  { table: 'webhook_events', column: 'tipo' },
] as const;

/** Every value of `pairs`' keys in the column replaced by its value, in one pass over the table (events may be many). */
async function rename(db: Knex, table: string, column: string, pairs: readonly (readonly [string, string])[]): Promise<void> {
  const cases = pairs.map(() => 'when ? then ?').join(' ');
  await db.raw(`update ?? set ?? = case ?? ${cases} end where ?? in (${pairs.map(() => '?').join(', ')})`, [
    table,
    column,
    column,
    ...pairs.flat(),
    column,
    ...pairs.map(([from]) => from),
  ]);
}

export const eventTypes: Migration = {
  async up(db) {
    const pairs = Object.entries(EVENT_TYPE_OF_FLAG);
    for (const { table, column } of COLUMNS) await rename(db, table, column, pairs);
  },
  async down(db) {
    const pairs = Object.entries(EVENT_TYPE_OF_FLAG).map(([flag, type]) => [type, flag] as const);
    for (const { table, column } of COLUMNS) await rename(db, table, column, pairs);
  },
};
