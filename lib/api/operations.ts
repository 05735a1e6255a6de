import type { z } from 'zod';
import type { Capability } from '@/lib/auth/principal';
import { apiPath, routes, type HttpMethod } from './routes';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_CHARACTERS, MAX_IDEMPOTENCY_KEY_LENGTH } from '@/lib/idempotency/key-syntax';
import { auditQuerySchema } from '@/lib/audit/contract';
import {
  bodyProblems,
  commonProblems,
  etagHeader,
  json,
  malformedRequest,
  problem,
  queryParameters,
  ref,
  webhookIdParameter,
} from '@/lib/openapi/fragments';
import { freeSlotQuerySchema } from '@/lib/scheduling/contract';
import { deliveryListQuerySchema } from '@/lib/webhooks/delivery-contract';
import { recentReservationsQuerySchema } from '@/lib/scheduling/recent-reservations';

/**
 * Every API operation, defined once: method, path, the capability a caller needs, and its
 * documentation. The route handlers (apiRoute/publicRoute read the capability), the OpenAPI
 * document (a loop over these), the browser client and the e2e specs (apiPath) all derive from
 * here. The key is the operationId. No server imports: the console's client code reads it too.
 */
// No PATCH: scripts/server-entry.mjs hands TRACE to the app as PATCH, to be refused with 405.
export type { HttpMethod };

export type Operation = {
  method: HttpMethod;
  /** OpenAPI path template, e.g. /api/v2/avaliacao-saude/configuracao-web-hook/{id}. */
  path: string;
  /** What an authenticated caller must be allowed to do; absent on public operations. */
  capability?: Capability;
  /** The query string's schema: the wrapper validates it (400 naming each parameter) and hands the result over. */
  query?: z.ZodType;
  /** The OpenAPI operation object, less operationId; absent for the document and its HTML reference. */
  doc?: Record<string, unknown>;
};

const deliveryIdParameter = {
  name: 'entregaId',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^msg_[0-9a-z]{29}$' },
  description: 'The delivery’s id (its webhook-id header).',
};
const notYours = problem('No configuration (or delivery) of yours has this id.');

/** Operations on one configuration's deliveries: the owner and staff with the webhooks role only. */
function deliveryDoc(summary: string, description: string, responses: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    summary,
    tags: ['Entregas de webhook'],
    description,
    ...extra,
    responses: { ...responses, ...commonProblems, '404': notYours },
  };
}

const clientIdParameter = {
  name: 'clientId',
  in: 'path',
  required: true,
  schema: { type: 'string', maxLength: 100 },
  description: 'The API client’s client_id.',
};

const staffIdParameter = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
  description: 'The staff user’s id.',
};

/** Administration (staff admins, console session only). */
function adminDoc(summary: string, description: string, responses: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    summary,
    tags: ['Administração'],
    description,
    security: [{ consoleSession: [] }],
    ...extra,
    responses: { ...responses, ...commonProblems },
  };
}

/** The reservation POST's documentation; both of its paths share it (one handler). */
function reservationDoc(summary: string) {
  const procedureAnswer = (description: string) => ({ description, content: json(ref('SlotReservationResponse')) });
  return {
    summary,
    tags: ['Agendamentos'],
    description:
      'Reserves (ieOpcao R) or releases (ieOpcao CR) a free exam slot. tokenReservaCanc is required with CR (the TOKEN_RESERVA_P of the reservation) and refused with R; ieLado is required when the exam requires laterality. The HTTP status follows CODIGO_P (0, 1 → 200; 2, 4, 5 → 409; 3 → 404; 9 → 500), always with the four-field body. With an Idempotency-Key, a retry with the same body within 24 h answers the stored response again (Idempotency-Replayed: true) without reserving twice.',
    parameters: [
      {
        name: IDEMPOTENCY_HEADER,
        in: 'header',
        required: false,
        schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH, pattern: `^${IDEMPOTENCY_KEY_CHARACTERS}+$` },
        description: 'Any unique value per logical request (a UUID is a good choice), scoped to your client.',
      },
    ],
    requestBody: { required: true, content: json(ref('SlotReservationRequest')) },
    responses: {
      '200': {
        ...procedureAnswer('Reserved (CODIGO_P 0) or released (CODIGO_P 1).'),
        headers: {
          'Idempotency-Replayed': {
            description: '`true` when this is the stored answer of an earlier request with the same key.',
            schema: { type: 'string', enum: ['true'] },
          },
        },
      },
      ...bodyProblems,
      ...commonProblems,
      '404': procedureAnswer('Slot not found (CODIGO_P 3).'),
      '409': {
        description:
          'Slot unavailable, release not possible or exam already booked (CODIGO_P 2, 4, 5); or, as problem+json, a request with the same Idempotency-Key still in progress (retry after Retry-After seconds).',
        content: { ...json(ref('SlotReservationResponse')), 'application/problem+json': { schema: ref('Problem') } },
      },
      '422': problem('The Idempotency-Key was already used with a different body.'),
      '429': problem(
        'The client already holds the most active reservations allowed (MAX_ACTIVE_HOLDS_PER_CLIENT); nothing was reserved. Retry-After says when the oldest hold lapses.',
      ),
      '500': {
        description: 'Internal error of the back-end (CODIGO_P 9, generic message), or an unexpected error as problem+json.',
        content: { ...json(ref('SlotReservationResponse')), 'application/problem+json': { schema: ref('Problem') } },
      },
    },
  };
}

export const operations = {
  issueToken: {
    ...routes.issueToken,
    doc: {
      summary: 'Access token (OAuth 2.0 client credentials)',
      tags: ['Autenticação'],
      security: [{}, { clientBasic: [] }],
      requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref('TokenRequest') } } },
      responses: {
        '200': { description: 'A short-lived Bearer token.', content: json(ref('TokenResponse')) },
        '400': { description: 'Missing or unsupported grant_type.', content: json(ref('OAuthError')) },
        '401': { description: 'Client authentication failed (invalid_client).', content: json(ref('OAuthError')) },
        '429': {
          description: 'Too many failed attempts for this client_id: invalid_client, retry after the Retry-After header’s seconds.',
          headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until the client_id is unlocked.' } },
          content: json(ref('OAuthError')),
        },
        '404': problem('The embedded issuer is switched off (AUTH_EMBEDDED_ISSUER=false): use the integration platform’s token.'),
      },
    },
  },
  liveness: {
    ...routes.liveness,
    doc: {
      summary: 'Liveness: the process answers (no database access)',
      tags: ['Operação'],
      security: [{}],
      responses: {
        '200': { description: '`{"status":"ok","uptimeSeconds":…}`', content: json({ type: 'object' }) },
        '4XX': malformedRequest,
      },
    },
  },
  readiness: {
    ...routes.readiness,
    doc: {
      summary: 'Readiness: the database and the scheduling back-end answer, with timings',
      tags: ['Operação'],
      security: [{}],
      responses: {
        '200': {
          description: '`{"status":"ready","checks":{"database":{ok,ms,dialect},"scheduling":{ok,ms,backend}}}`',
          content: json({ type: 'object' }),
        },
        '503': {
          description:
            'A check failed: `"status":"not-ready"`, the failing check with an error code; or the instance is stopping for a deploy: `"status":"stopping"`.',
          content: json({ type: 'object' }),
        },
        '4XX': malformedRequest,
      },
    },
  },
  listWebhookConfigurations: {
    ...routes.listWebhookConfigurations,
    capability: 'webhooks',
    doc: {
      summary: 'Your webhook configurations',
      tags: ['Webhooks'],
      parameters: [
        {
          name: 'q',
          in: 'query',
          required: false,
          schema: { type: 'string', maxLength: 200 },
          description: 'Filters by URL, usuarioId or clientId.',
        },
      ],
      responses: {
        '200': {
          description: 'The configurations of your usuarioId.',
          content: json({ type: 'array', items: ref('WebhookView') }),
        },
        ...commonProblems,
      },
    },
  },
  createWebhookConfiguration: {
    ...routes.createWebhookConfiguration,
    capability: 'webhooks',
    doc: {
      summary: 'Create a webhook configuration',
      tags: ['Webhooks'],
      description:
        'The PUT’s rules with url required. An API client creates one for its own tenant (usuarioId and sistemaOrigem omitted or its own); staff with the webhooks role name the tenant. Omitted events are off. It gets its own signing secret.',
      requestBody: { required: true, content: json(ref('WebhookCreate')) },
      responses: {
        '201': {
          description: 'Created; Location names it.',
          headers: {
            ...etagHeader,
            Location: { description: 'The new configuration’s path.', schema: { type: 'string' } },
          },
          content: json(ref('WebhookView')),
        },
        ...bodyProblems,
        ...commonProblems,
      },
    },
  },
  deleteWebhookConfiguration: {
    ...routes.deleteWebhookConfiguration,
    capability: 'webhooks',
    doc: {
      summary: 'Delete a webhook configuration',
      tags: ['Webhooks'],
      description: 'With its delivery log. Afterwards the id answers 404.',
      parameters: [webhookIdParameter],
      responses: {
        '204': { description: 'Deleted.' },
        '400': problem('id is not a UUID.'),
        ...commonProblems,
        '404': problem('No configuration of yours has this id.'),
      },
    },
  },
  getWebhookConfiguration: {
    ...routes.getWebhookConfiguration,
    capability: 'webhooks',
    doc: {
      summary: 'One webhook configuration',
      tags: ['Webhooks'],
      parameters: [webhookIdParameter],
      responses: {
        '200': { description: 'The configuration.', headers: etagHeader, content: json(ref('WebhookDetail')) },
        '400': problem('id is not a UUID.'),
        ...commonProblems,
        '404': problem('No configuration of yours has this id.'),
      },
    },
  },
  updateWebhookConfiguration: {
    ...routes.updateWebhookConfiguration,
    capability: 'webhooks',
    doc: {
      summary: 'Change a webhook configuration',
      tags: ['Webhooks'],
      description:
        'Every field is optional: an omitted field keeps its stored value; headers, when sent, replaces the whole list. Send If-Match with the ETag you read to refuse the change (412) when someone changed the configuration meanwhile.',
      parameters: [
        webhookIdParameter,
        {
          name: 'If-Match',
          in: 'header',
          required: false,
          schema: { type: 'string' },
          description: 'ETag of the version you read, or *.',
        },
      ],
      requestBody: { required: true, content: json(ref('WebhookUpdate')) },
      responses: {
        '200': {
          description: 'The whole configuration after the change.',
          headers: etagHeader,
          content: json(ref('WebhookView')),
        },
        ...bodyProblems,
        ...commonProblems,
        '404': problem('No configuration of yours has this id.'),
        '412': problem('If-Match does not match the current version.'),
      },
    },
  },
  listFreeSlots: {
    ...routes.listFreeSlots,
    capability: 'scheduling',
    query: freeSlotQuerySchema,
    doc: {
      summary: 'Free slots, soonest first',
      tags: ['Agendamentos'],
      parameters: queryParameters(freeSlotQuerySchema, {
        de: 'From this instant (ISO 8601 with offset).',
        ate: 'Until this instant (ISO 8601 with offset).',
        cdAgenda: 'Only this agenda.',
        limite: 'At most this many slots.',
      }),
      responses: {
        '200': {
          description: 'Free slots; NR_SEQ_AGENDA is the nrSeqAgenda to reserve.',
          content: json({ type: 'array', items: ref('FreeSlot') }),
        },
        '400': problem('A filter is invalid.'),
        ...commonProblems,
      },
    },
  },
  listProcedures: {
    ...routes.listProcedures,
    capability: 'scheduling',
    doc: {
      summary: 'Exams a slot can be reserved for',
      tags: ['Agendamentos'],
      description:
        'NR_SEQ_PROC_INTERNO is the nrSeqProcInterno to send; NR_MIN_DURACAO the exam’s usual duration in minutes; IE_LADO_OBRIGATORIO = S means the reservation must carry ieLado. Answers 501 when the configured back-end (the hospital’s Oracle) has no exam listing.',
      responses: {
        '200': { description: 'Exams, by name.', content: json({ type: 'array', items: ref('Procedure') }) },
        '501': problem('The configured scheduling back-end has no exam listing; send nrSeqProcInterno from the hospital system.'),
        ...commonProblems,
      },
    },
  },
  listRecentReservations: {
    ...routes.listRecentReservations,
    capability: 'scheduling',
    query: recentReservationsQuerySchema,
    doc: {
      summary: 'Recent reservations made through the service, with their state',
      tags: ['Agendamentos'],
      description:
        'From the reservation log, newest first: every successful reservation with its state (active, released, or expired once its hold lapsed) and when its hold expires. Patient identifiers come masked. Staff see everyone’s; an API client sees only its own.',
      parameters: queryParameters(recentReservationsQuerySchema, { limite: 'At most this many reservations.' }),
      responses: {
        '200': { description: 'Reservations, newest first.', content: json({ type: 'array', items: ref('RecentReservation') }) },
        '400': problem('A filter is invalid.'),
        ...commonProblems,
      },
    },
  },
  listAuditTrail: {
    ...routes.listAuditTrail,
    capability: 'audit',
    query: auditQuerySchema,
    doc: {
      summary: 'Audit trail (operators)',
      tags: ['Auditoria'],
      description:
        'Who changed what, when and with what outcome; header values and patient identifiers masked. Staff admin session only: API clients get 403.',
      security: [{ consoleSession: [] }],
      parameters: queryParameters(auditQuerySchema, {
        acao: 'Only this action.',
        ator: 'Only this actor (API client id or staff e-mail).',
        alvo: 'Only this target (webhook:<id> or slot:<nrSeqAgenda>).',
        antes: 'Only entries older than this instant (paging).',
        limite: 'At most this many entries.',
      }),
      responses: {
        '200': { description: 'Entries, newest first.', content: json({ type: 'array', items: ref('AuditEntry') }) },
        '400': problem('A filter is invalid.'),
        ...commonProblems,
      },
    },
  },
  reserveOrReleaseSlot: {
    ...routes.reserveOrReleaseSlot,
    capability: 'scheduling',
    doc: reservationDoc('Reserve or release a slot'),
  },
  reserveOrReleaseSlotSamplePath: {
    ...routes.reserveOrReleaseSlotSamplePath,
    capability: 'scheduling',
    doc: reservationDoc('Reserve or release a slot (path of the contract’s sample requests; identical behaviour)'),
  },
  publishEvent: {
    ...routes.publishEvent,
    capability: 'events',
    doc: {
      summary: 'Publish a health-evaluation or proposal event',
      tags: ['Entregas de webhook'],
      description:
        'For the system that produces the events: an API client with the scope eventos:publicar, or a staff admin. One delivery is created for each configuration of usuarioId whose flag for tipo is on (skipped, for a later recovery, when the configuration is disabled) and sent at once, signed as Standard Webhooks specifies. The same idEvento from the same producer again answers 200 with the first event and sends nothing.',
      requestBody: { required: true, content: json(ref('PublishEvent')) },
      responses: {
        '202': { description: 'Accepted; deliveries are under way.', content: json(ref('PublishedEvent')) },
        '200': { description: 'This idEvento was already published: the first event.', content: json(ref('PublishedEvent')) },
        ...bodyProblems,
        ...commonProblems,
      },
    },
  },
  listDeliveries: {
    ...routes.listDeliveries,
    capability: 'webhooks',
    query: deliveryListQuerySchema,
    doc: deliveryDoc(
      'The deliveries of a configuration, newest first',
      'Each with its status, attempts, next attempt and last answer (status, duration, the first 1 KiB of the body, error class).',
      {
        '200': { description: 'Deliveries.', content: json({ type: 'array', items: ref('Delivery') }) },
        '400': problem('A filter is invalid.'),
      },
      {
        parameters: [
          webhookIdParameter,
          ...queryParameters(deliveryListQuerySchema, {
            status: 'Only deliveries in this state.',
            evento: 'Only the deliveries of this event: the producer’s idEvento, or the `evt_…` id the publish answered.',
            limite: 'At most this many.',
            antes: 'Only deliveries created before this instant (paging).',
          }),
        ],
      },
    ),
  },
  getDelivery: {
    ...routes.getDelivery,
    capability: 'webhooks',
    doc: deliveryDoc(
      'One delivery with every attempt',
      'The request sent (custom header values masked) and each attempt’s status, duration, answer excerpt and error.',
      { '200': { description: 'The delivery.', content: json(ref('DeliveryDetail')) } },
      { parameters: [webhookIdParameter, deliveryIdParameter] },
    ),
  },
  redeliver: {
    ...routes.redeliver,
    capability: 'webhooks',
    doc: deliveryDoc(
      'Send a delivery again now',
      'A new attempt at once, with the same webhook-id, so the receiver can tell it is the same message. While an attempt of it is in flight the answer is 409 with `Retry-After`: ask again once it ends.',
      {
        '202': { description: 'Queued.', content: json(ref('DeliveryCreated')) },
        '409': problem('An attempt of this delivery is in progress (`Retry-After`: seconds until it ends at the latest).'),
      },
      { parameters: [webhookIdParameter, deliveryIdParameter] },
    ),
  },
  recoverDeliveries: {
    ...routes.recoverDeliveries,
    capability: 'webhooks',
    doc: deliveryDoc(
      'Send again what failed or was skipped since a date',
      'For a receiver back after an outage, or a configuration enabled again. Delivery history is kept WEBHOOK_RETENTION_DAYS (90 by default): older deliveries are gone and cannot be recovered.',
      { '202': { description: 'How many deliveries were queued.', content: json(ref('RecoveryResult')) }, ...bodyProblems },
      { parameters: [webhookIdParameter], requestBody: { required: true, content: json(ref('Recovery')) } },
    ),
  },
  sendTestEvent: {
    ...routes.sendTestEvent,
    capability: 'webhooks',
    doc: deliveryDoc(
      'Send a test event',
      'A webhook.teste event to this configuration alone, even while it is disabled; follow it with the delivery’s id.',
      { '202': { description: 'The test delivery.', content: json(ref('DeliveryCreated')) } },
      { parameters: [webhookIdParameter] },
    ),
  },
  getWebhookSecret: {
    ...routes.getWebhookSecret,
    capability: 'webhooks',
    doc: deliveryDoc(
      'The configuration’s signing secret',
      'whsec_ + base64 of the HMAC-SHA256 key that signs webhook-signature (Standard Webhooks).',
      { '200': { description: 'The secret.', content: json(ref('WebhookSecret')) } },
      { parameters: [webhookIdParameter] },
    ),
  },
  rotateWebhookSecret: {
    ...routes.rotateWebhookSecret,
    capability: 'webhooks',
    doc: deliveryDoc(
      'Rotate the signing secret',
      'A new secret signs from now on; the previous one keeps signing beside it (a second signature) for WEBHOOK_SECRET_OVERLAP_HOURS, so a receiver can switch without losing messages.',
      { '200': { description: 'The new secret.', content: json(ref('WebhookSecret')) } },
      { parameters: [webhookIdParameter] },
    ),
  },
  listApiClients: {
    ...routes.listApiClients,
    capability: 'administration',
    doc: adminDoc('API clients', 'Every API client with its tenant, scopes, state and when it last obtained a token; never a secret.', {
      '200': { description: 'The clients.', content: json({ type: 'array', items: ref('ApiClient') }) },
    }),
  },
  createApiClient: {
    ...routes.createApiClient,
    capability: 'administration',
    doc: adminDoc(
      'Create an API client',
      'Its secret (256 random bits) is in this answer only; the server keeps its hash.',
      {
        '201': { description: 'Created, with the secret.', content: json(ref('ApiClientWithSecret')) },
        ...bodyProblems,
        '409': problem('A client with this clientId exists.'),
      },
      { requestBody: { required: true, content: json(ref('ApiClientCreate')) } },
    ),
  },
  rotateApiClientSecret: {
    ...routes.rotateApiClientSecret,
    capability: 'administration',
    doc: adminDoc(
      'Rotate an API client’s secret',
      'A new secret, shown once; the previous one keeps working for CLIENT_SECRET_OVERLAP_HOURS so the partner can switch.',
      { '200': { description: 'The new secret.', content: json(ref('ApiClientWithSecret')) }, '404': problem('No such client.') },
      { parameters: [clientIdParameter] },
    ),
  },
  revokeApiClient: {
    ...routes.revokeApiClient,
    capability: 'administration',
    doc: adminDoc(
      'Revoke an API client',
      'It gets no more tokens, and the tokens it holds stop working within a minute.',
      { '200': { description: 'The client, revoked.', content: json(ref('ApiClient')) }, '404': problem('No such client.') },
      { parameters: [clientIdParameter] },
    ),
  },
  listStaff: {
    ...routes.listStaff,
    capability: 'administration',
    doc: adminDoc('Staff accounts', 'Every staff user with roles and state; never a password.', {
      '200': { description: 'The staff.', content: json({ type: 'array', items: ref('StaffUser') }) },
    }),
  },
  createStaff: {
    ...routes.createStaff,
    capability: 'administration',
    doc: adminDoc(
      'Create a staff account',
      'Makes a one-time link (24 h) for the person to set a password: e-mailed to them when the server has SMTP_URL, otherwise answered for the admin to hand over.',
      {
        '201': { description: 'Created, with the link.', content: json(ref('StaffCreated')) },
        ...bodyProblems,
        '409': problem('A user with this e-mail exists.'),
      },
      { requestBody: { required: true, content: json(ref('StaffCreate')) } },
    ),
  },
  updateStaff: {
    ...routes.updateStaff,
    capability: 'administration',
    doc: adminDoc(
      'Change roles, disable or enable a staff account',
      'A disabled user’s sessions end at their next request. Admins cannot remove their own admin role or disable themselves.',
      { '200': { description: 'The account.', content: json(ref('StaffUser')) }, ...bodyProblems, '404': problem('No such user.') },
      { parameters: [staffIdParameter], requestBody: { required: true, content: json(ref('StaffUpdate')) } },
    ),
  },
  resetStaffPassword: {
    ...routes.resetStaffPassword,
    capability: 'administration',
    doc: adminDoc(
      'A new one-time link to set the password',
      'Valid 24 h; an earlier link stops working. E-mailed when the server has SMTP_URL, otherwise answered.',
      {
        '200': { description: 'The link.', content: json(ref('PasswordLink')) },
        '400': problem('id is not a UUID.'),
        '404': problem('No such user.'),
      },
      { parameters: [staffIdParameter] },
    ),
  },
  setPasswordWithLink: {
    ...routes.setPasswordWithLink,
    doc: {
      summary: 'Set a password with a one-time link',
      tags: ['Autenticação'],
      security: [],
      description: 'At least 12 characters, not containing the e-mail’s local part, not among the most common passwords.',
      requestBody: { required: true, content: json(ref('SetPassword')) },
      responses: { '204': { description: 'Set; sign in with it.' }, ...bodyProblems },
    },
  },
  changeOwnPassword: {
    ...routes.changeOwnPassword,
    capability: 'account',
    doc: {
      summary: 'Change your own password (staff)',
      tags: ['Autenticação'],
      security: [{ consoleSession: [] }],
      requestBody: { required: true, content: json(ref('ChangePassword')) },
      responses: { '204': { description: 'Changed.' }, ...bodyProblems, ...commonProblems },
    },
  },
  openApiDocument: routes.openApiDocument,
  apiReference: routes.apiReference,
} as const satisfies Record<string, Operation>;

export { apiPath };
