import { OPERATIONAL_EVENT_TYPES, type OperationalEventType } from './operational';

/**
 * Every event type, one record each (issue 44): the flag a configuration turns it on by (§2.1; none
 * for the test event and the operational events, which no flag chooses), the type a receiver sees
 * and stores (webhook_events.tipo, webhook_subscriptions.event_type), where it comes from, and what
 * it means (the catalogue's description). The payload schema of each type is in messages.ts (zod,
 * kept out of this file: the console's first load imports these records).
 *
 * To add an event type: add its record here (and its flag to the tuple when a configuration turns it
 * on), its `data` schema in messages.ts, and its strings in lib/i18n/messages.
 */
export const PUBLISHED_EVENT_FLAGS = [
  'eventoAvaliacaoSaudeAprovada',
  'eventoAvaliacaoSaudeAguardandoAprovacao',
  'eventoAvaliacaoSaudeArquivada',
  'eventoAvaliacaoSaudeDesarquivada',
  'eventoPropostaCancelada',
] as const;
/**
 * Scheduling events (issue 48): the product publishes them itself, to the tenant whose reservation
 * or waitlist entry it is (lib/waitlist/events.ts); no producer may publish them.
 */
export const SCHEDULING_EVENT_FLAGS = [
  'eventoAgendamentoReservado',
  'eventoAgendamentoLiberado',
  'eventoAgendamentoOfertado',
  'eventoAgendamentoOfertaExpirada',
] as const;
export const WEBHOOK_EVENT_FLAGS = [...PUBLISHED_EVENT_FLAGS, ...SCHEDULING_EVENT_FLAGS] as const;

export type WebhookEventFlag = (typeof WEBHOOK_EVENT_FLAGS)[number];
export type SchedulingEventFlag = (typeof SCHEDULING_EVENT_FLAGS)[number];

/** Who publishes it: a producer (POST …/eventos), the product's scheduling, the console's test, or the delivery engine. */
export type EventOrigin = 'producer' | 'scheduling' | 'test' | 'operational';

export type EventRecord = { type: string; flag: WebhookEventFlag | null; origin: EventOrigin; description: string };

/** The console's test event (POST …/teste), sent whatever the flags, even to a disabled configuration. */
export const TEST_EVENT_TYPE = 'webhook.teste';

const flagged = (
  flag: WebhookEventFlag,
  type: string,
  origin: EventOrigin,
  description: string,
): EventRecord & { flag: WebhookEventFlag } => ({ flag, type, origin, description });

const FLAGGED_EVENTS: Record<WebhookEventFlag, EventRecord & { flag: WebhookEventFlag }> = {
  eventoAvaliacaoSaudeAprovada: flagged(
    'eventoAvaliacaoSaudeAprovada',
    'avaliacao-saude.aprovada',
    'producer',
    'A health evaluation was approved (configurations with eventoAvaliacaoSaudeAprovada on).',
  ),
  eventoAvaliacaoSaudeAguardandoAprovacao: flagged(
    'eventoAvaliacaoSaudeAguardandoAprovacao',
    'avaliacao-saude.aguardando-aprovacao',
    'producer',
    'A health evaluation was filled in and awaits approval (configurations with eventoAvaliacaoSaudeAguardandoAprovacao on).',
  ),
  eventoAvaliacaoSaudeArquivada: flagged(
    'eventoAvaliacaoSaudeArquivada',
    'avaliacao-saude.arquivada',
    'producer',
    'A health evaluation was archived (configurations with eventoAvaliacaoSaudeArquivada on).',
  ),
  eventoAvaliacaoSaudeDesarquivada: flagged(
    'eventoAvaliacaoSaudeDesarquivada',
    'avaliacao-saude.desarquivada',
    'producer',
    'A health evaluation was unarchived (configurations with eventoAvaliacaoSaudeDesarquivada on).',
  ),
  eventoPropostaCancelada: flagged(
    'eventoPropostaCancelada',
    'proposta.cancelada',
    'producer',
    'A single-life proposal was cancelled (configurations with eventoPropostaCancelada on).',
  ),
  eventoAgendamentoReservado: flagged(
    'eventoAgendamentoReservado',
    'agendamento.reservado',
    'scheduling',
    'A slot was reserved by the tenant through the API (configurations with eventoAgendamentoReservado on).',
  ),
  eventoAgendamentoLiberado: flagged(
    'eventoAgendamentoLiberado',
    'agendamento.liberado',
    'scheduling',
    'A reservation of the tenant was released, by it, by staff, or by the waitlist when an offer was declined or expired (configurations with eventoAgendamentoLiberado on).',
  ),
  eventoAgendamentoOfertado: flagged(
    'eventoAgendamentoOfertado',
    'agendamento.ofertado',
    'scheduling',
    'A freed slot was reserved for the first entry in line of the tenant’s waitlist: accept the offer before `prazo` (POST …/lista-espera/{id}/aceite) or it is released and offered to the next (configurations with eventoAgendamentoOfertado on).',
  ),
  eventoAgendamentoOfertaExpirada: flagged(
    'eventoAgendamentoOfertaExpirada',
    'agendamento.oferta-expirada',
    'scheduling',
    'An offer’s deadline passed unanswered: its slot was released and goes to the next entry in line (configurations with eventoAgendamentoOfertaExpirada on).',
  ),
};

const operational = (type: OperationalEventType, description: string): EventRecord => ({
  type,
  flag: null,
  origin: 'operational',
  description: `Operational, to the operator’s receiver only: ${description}`,
});

/** Every event type, in the catalogue's order: the flags', the test event, the operational events. */
export const EVENT_TYPES: readonly EventRecord[] = [
  ...WEBHOOK_EVENT_FLAGS.map((flag) => FLAGGED_EVENTS[flag]),
  {
    type: TEST_EVENT_TYPE,
    flag: null,
    origin: 'test',
    description: 'A test event sent from the console or the API (POST …/teste), whatever the flags.',
  },
  operational(
    OPERATIONAL_EVENT_TYPES.disabled,
    'the worker switched a partner’s configuration off (a 410, or failing too long). Once per incident.',
  ),
  operational(
    OPERATIONAL_EVENT_TYPES.circuitOpen,
    'a partner’s receiver has looked down (its circuit open) for WEBHOOK_ALERT_CIRCUIT_MINUTES. Once per incident.',
  ),
  operational(
    OPERATIONAL_EVENT_TYPES.switchedOn,
    'a configuration the worker switched off was switched back on. The receiver is not confirmed yet: configuracao.recuperada follows when a delivery to it succeeds. Once per incident.',
  ),
  operational(
    OPERATIONAL_EVENT_TYPES.recovered,
    'a delivery to a configuration announced by configuracao.desativada or circuito.aberto succeeded again, so the incident is over (not when the circuit merely lets a probe through, nor at a switch back on). Once per incident; none for an open circuit that ended in a switch-off.',
  ),
  operational(
    OPERATIONAL_EVENT_TYPES.exhausted,
    'a delivery to a partner will not be attempted again (its retries ran out, or a permanent failure). Once per delivery; never for test events or the operator’s own deliveries.',
  ),
];

/** The event type a receiver sees (and the store keeps) for each of §2.1's flags. */
export const EVENT_TYPE_OF_FLAG = Object.fromEntries(WEBHOOK_EVENT_FLAGS.map((flag) => [flag, FLAGGED_EVENTS[flag].type])) as Record<
  WebhookEventFlag,
  string
>;

export const OPERATIONAL_EVENT_TYPE_LIST: readonly OperationalEventType[] = EVENT_TYPES.filter(
  ({ origin }) => origin === 'operational',
).map(({ type }) => type as OperationalEventType);
