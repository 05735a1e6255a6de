import { SCHEDULING_EXAMPLES } from '@/lib/webhooks/events/scheduling-payloads';
import { TEST_EVENT_TYPE, OPERATIONAL_EVENT_TYPE_LIST } from '@/lib/webhooks/events/types';
import { MESSAGE_SCHEMAS, TEST_MESSAGE_TEXT } from '@/lib/webhooks/events/messages';
import { WEBHOOK_DEFAULTS } from '@/lib/config/env';
import { messageBody, USER_AGENT } from '@/lib/webhooks/delivery/message';
import { WEBHOOKS_TAG } from '@/lib/webhooks/events/catalogue-link';
import { OPERATIONAL_EVENT_TYPES, OPERATOR_TENANT } from '@/lib/webhooks/events/operational';
import { ref } from './components';

export { WEBHOOKS_TAG };

/** Operational events go to the operator's receiver, not to partners': their own tag in the reference. */
export const OPERATIONAL_WEBHOOKS_TAG = 'Operational notifications (webhooks)';

/**
 * The OpenAPI document's `webhooks` section (issue 22): the calls this service makes to partners'
 * receivers, one per event type, with the message schema the worker builds its messages as
 * (lib/webhooks/events/messages.ts), Standard Webhooks' signature headers, what each answer makes
 * the worker do, and an example built by the worker's own messageBody.
 */

const EXAMPLE_USER = '11111111-1111-4111-8111-111111111111';
const EXAMPLE_PUBLISHED = Date.UTC(2026, 10, 24, 13, 30, 0);

const EXAMPLE_CONFIGURATION = {
  id: '3f2a9c1e-5b7d-4e8f-a1b2-c3d4e5f6a7b8',
  usuarioId: EXAMPLE_USER,
  destino: 'https://hooks.parceiro.exemplo.com.br',
};
const EXAMPLE_INCIDENT = 'alr_0mwv85ynqb5df19dc294813e47095';
const EXAMPLE_SINCE = new Date(EXAMPLE_PUBLISHED - 20 * 60_000).toISOString();

/** Each operational event's `data`, as the engine publishes it (lib/webhooks/operational, delivery/store/operational.ts). */
const OPERATIONAL_EXAMPLES: Record<string, Record<string, unknown>> = {
  [OPERATIONAL_EVENT_TYPES.disabled]: {
    incidenteId: EXAMPLE_INCIDENT,
    configuracao: EXAMPLE_CONFIGURATION,
    motivo: 'receptor-410',
    desde: EXAMPLE_SINCE,
  },
  [OPERATIONAL_EVENT_TYPES.circuitOpen]: {
    incidenteId: EXAMPLE_INCIDENT,
    configuracao: EXAMPLE_CONFIGURATION,
    motivo: 'tempo-esgotado',
    ultimoStatus: null,
    falhasSeguidas: 5,
    desde: EXAMPLE_SINCE,
  },
  [OPERATIONAL_EVENT_TYPES.switchedOn]: {
    incidenteId: EXAMPLE_INCIDENT,
    configuracao: EXAMPLE_CONFIGURATION,
    desde: EXAMPLE_SINCE,
    religadaEm: new Date(EXAMPLE_PUBLISHED).toISOString(),
    receptorConfirmado: false,
    ignoradas: 12,
    recuperacao: { desde: EXAMPLE_SINCE },
  },
  [OPERATIONAL_EVENT_TYPES.recovered]: {
    incidenteId: EXAMPLE_INCIDENT,
    configuracao: EXAMPLE_CONFIGURATION,
    incidente: 'circuito-aberto',
    desde: EXAMPLE_SINCE,
    recuperadaEm: new Date(EXAMPLE_PUBLISHED).toISOString(),
  },
  [OPERATIONAL_EVENT_TYPES.exhausted]: {
    configuracao: EXAMPLE_CONFIGURATION,
    entregaId: 'msg_0mwv85ynqb5df19dc294813e47095',
    eventoId: 'evt_0mwv85ynqb5df19dc294813e47095',
    tipo: 'avaliacao-saude.aprovada',
    tentativas: 8,
    motivo: 'status-http',
    ultimoStatus: 500,
    desde: EXAMPLE_SINCE,
    esgotadaEm: new Date(EXAMPLE_PUBLISHED).toISOString(),
  },
};

function operationalExample(type: string): unknown {
  const dados = OPERATIONAL_EXAMPLES[type]!;
  const subject = String(dados.incidenteId ?? dados.entregaId);
  const body = messageBody({
    id: 'evt_0mwv85ynqb5df19dc294813e47096',
    tipo: type,
    usuarioId: OPERATOR_TENANT,
    idEvento: `${type}:${subject}`,
    dados,
    createdAt: EXAMPLE_PUBLISHED,
  });
  return JSON.parse(body) as unknown;
}

function example(type: string): unknown {
  if (OPERATIONAL_EXAMPLES[type]) return operationalExample(type);
  const test = type === TEST_EVENT_TYPE;
  const body = messageBody({
    id: 'evt_0mwv85ynqb5df19dc294813e47095',
    tipo: type,
    usuarioId: EXAMPLE_USER,
    idEvento: test ? null : 'aval-2026-000123',
    dados: test
      ? { mensagem: TEST_MESSAGE_TEXT }
      : (SCHEDULING_EXAMPLES[type] ?? { proposta: 987654, beneficiario: { nome: 'Maria da Silva' } }),
    createdAt: EXAMPLE_PUBLISHED,
  });
  return JSON.parse(body) as unknown;
}

const header = (name: string, description: string, schema: Record<string, unknown>) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema,
});

const SIGNATURE_HEADERS = [
  header('webhook-id', 'The delivery’s id, the same in every attempt of it: deduplicate by it.', {
    type: 'string',
    pattern: '^msg_[0-9a-z]{29}$',
  }),
  header('webhook-timestamp', 'Seconds since the epoch when this attempt was signed; refuse one too far from your clock (5 minutes).', {
    type: 'integer',
  }),
  header(
    'webhook-signature',
    '`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the configuration’s `whsec_…` secret (its base64 part as the key). During a secret rotation’s overlap a second signature follows, separated by a space: accept the message if any matches.',
    { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
  ),
];

/** 5 → "5 s", 300 → "5 min", 7200 → "2 h". */
function duration(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}
const DEFAULT_SCHEDULE = WEBHOOK_DEFAULTS.retrySchedule.split(',').map((step) => duration(Number(step)));

const RESPONSES = {
  '2XX': {
    description: `Accepted: the delivery is done. Answer within the timeout (${WEBHOOK_DEFAULTS.timeoutMs / 1000} s by default) and do the work afterwards.`,
  },
  '410': { description: 'Gone: the configuration is switched off at once; later events are kept as skipped, for a recovery.' },
  '429': {
    description: 'Too many: retried no sooner than `Retry-After` seconds (within the retry schedule).',
    headers: { 'Retry-After': { schema: { type: 'integer' } } },
  },
  '503': {
    description: 'Unavailable: retried no sooner than `Retry-After` seconds (within the retry schedule).',
    headers: { 'Retry-After': { schema: { type: 'integer' } } },
  },
  default: {
    description: `Anything else (another status, a redirect, a timeout, a refused connection) is retried on the schedule (by default after ${DEFAULT_SCHEDULE.join(', ')}, each ±20 %); after the last the delivery has failed. A receiver failing for days is switched off.`,
  },
};

export function webhookCatalogue(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(MESSAGE_SCHEMAS).map(([type, schema]) => [
      type,
      {
        post: {
          operationId: `notify:${type}`,
          summary: type,
          description: `${String(schema.description ?? '')} Sent as a POST to the configuration’s url with the headers below, \`content-type: application/json\`, \`user-agent: ${USER_AGENT}\` and the configuration’s own headers (\`headers\`, chave/valor).`,
          tags: [(OPERATIONAL_EVENT_TYPE_LIST as readonly string[]).includes(type) ? OPERATIONAL_WEBHOOKS_TAG : WEBHOOKS_TAG],
          security: [],
          parameters: SIGNATURE_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: ref(schema), example: example(type) } } },
          responses: RESPONSES,
        },
      },
    ]),
  );
}

/**
 * The partner's entries of the catalogue (the operational events go to the operator alone): each
 * event type, what it means and how it is sent, and an example message, for the partner portal's
 * page of events (issue 30).
 */
export function partnerEventCatalogue(): { type: string; description: string; example: unknown }[] {
  return Object.entries(MESSAGE_SCHEMAS)
    .filter(([type]) => !(OPERATIONAL_EVENT_TYPE_LIST as readonly string[]).includes(type))
    .map(([type, schema]) => ({ type, description: String(schema.description ?? ''), example: example(type) }));
}
