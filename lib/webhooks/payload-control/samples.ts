import { EVENT_TYPE_OF_FLAG, TEST_EVENT_TYPE, type WebhookEventFlag } from '../events/types';
import type { WebhookMessage } from '../events/messages';
import { SCHEDULING_EXAMPLES } from '../events/scheduling-payloads';
import { isPlainObject } from './filter';

/**
 * A sample message per event type, for the test bench (issue 46 §5): the catalogue's envelope and
 * own fields (`idEvento`, `usuarioId`) around example producer data, with the personal data a
 * minimisation rule is for; a scheduling event, the catalogue's example of it. No server imports.
 */
const SAMPLE_DATA = {
  proposta: 987654,
  plano: 'OURO',
  beneficiario: { nome: 'Maria da Silva', cpf: '12345678901', dataNascimento: '1980-04-12', email: 'maria@example.com' },
  avaliacao: { pontuacao: 72, cids: ['E11', 'I10'] },
};

/** The event type a receiver sees, from a flag (`eventoAvaliacaoSaudeAprovada`) or the type itself. */
export function sampleType(tipo: string): string {
  return EVENT_TYPE_OF_FLAG[tipo as WebhookEventFlag] ?? tipo;
}

export function sampleMessage(tipo: string, usuarioId: string): WebhookMessage {
  const type = sampleType(tipo);
  // A scheduling event's sample is the catalogue's own example: its schema is closed, the evaluation sample is not it.
  const dados =
    type === TEST_EVENT_TYPE
      ? { mensagem: 'Evento de teste enviado pelo Console de Integração.' }
      : (SCHEDULING_EXAMPLES[type] ?? SAMPLE_DATA);
  return { type, timestamp: '2026-11-24T13:30:00.000Z', data: { ...dados, idEvento: 'aval-2026-000123', usuarioId } };
}

/** Every pointer to a value in `value` (lists by `*`), for the editor's suggestions. */
export function pointersOf(value: unknown, prefix = ''): string[] {
  const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
  if (Array.isArray(value)) return [prefix, ...(value.length > 0 ? pointersOf(value[0], `${prefix}/*`) : [])];
  if (!isPlainObject(value)) return prefix === '' ? [] : [prefix];
  const nested = Object.entries(value).flatMap(([key, child]) => pointersOf(child, `${prefix}/${escape(key)}`));
  return prefix === '' ? nested : [prefix, ...nested];
}
