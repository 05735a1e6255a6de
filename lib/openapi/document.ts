import { z } from 'zod';
import { auditEntrySchema, auditQuerySchema } from '@/lib/audit/contract';
import { oauthErrorSchema, tokenRequestSchema, tokenResponseSchema } from '@/lib/auth/token-contract';
import { problemSchema } from '@/lib/http/problem-schema';
import {
  freeSlotQuerySchema,
  freeSlotSchema,
  procedureSchema,
  slotReservationResponseSchema,
  slotReservationSchema,
} from '@/lib/scheduling/contract';
import { recentReservationSchema, recentReservationsQuerySchema } from '@/lib/scheduling/recent-reservations';
import { webhookConfigurationSchema, webhookUpdateSchema } from '@/lib/webhooks/contract';

/**
 * The OpenAPI 3.1 document of the API, generated from the same zod schemas the routes validate
 * with (zod's own JSON Schema 2020-12 output, the dialect OpenAPI 3.1 uses). Request bodies are
 * rendered as inputs (what a caller may send), answers as outputs. Rules JSON Schema cannot say
 * (URL and header policy, conditional tokenReservaCanc) are in the descriptions; the server
 * enforces them and answers 400 naming the field.
 */
type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });

/** Query parameters from a strict-object query schema, one per property. */
function queryParameters(schema: z.ZodObject, descriptions: Record<string, string>) {
  const whole = jsonSchema(schema, 'input') as { properties: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(whole.properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: whole.required?.includes(name) ?? false,
    schema: property,
    ...(descriptions[name] ? { description: descriptions[name] } : {}),
  }));
}

/** What any path can answer before a route runs, e.g. for a path that is not valid percent-encoding. */
const malformedRequest = problem('The request itself is malformed (e.g. an undecodable path).');

const commonProblems = {
  '401': problem('Missing, invalid or expired access token (WWW-Authenticate: Bearer).'),
  '403': problem('The caller may not use this operation.'),
  '500': problem('Unexpected error; details only in the server log.'),
};

const bodyProblems = {
  '400': problem('Invalid or missing fields, or malformed JSON; `errors` names each field.'),
  '413': problem('The body is larger than the server accepts (64 KiB by default).'),
  '415': problem('The body is not application/json.'),
};

const webhookIdParameter = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
  description: 'UUID of the configuration.',
};

const etagHeader = {
  ETag: { description: 'Strong entity tag of this version; send it in If-Match to update safely.', schema: { type: 'string' } },
};

function reservationOperation(operationId: string, summary: string) {
  const procedureAnswer = (description: string) => ({ description, content: json(ref('SlotReservationResponse')) });
  return {
    post: {
      operationId,
      summary,
      tags: ['Agendamentos'],
      description:
        'Reserves (ieOpcao R) or releases (ieOpcao CR) a free exam slot. tokenReservaCanc is required with CR (the TOKEN_RESERVA_P of the reservation) and refused with R; ieLado is required when the exam requires laterality. The HTTP status follows CODIGO_P (0, 1 → 200; 2, 4, 5 → 409; 3 → 404; 9 → 500), always with the four-field body. With an Idempotency-Key, a retry with the same body within 24 h answers the stored response again (Idempotency-Replayed: true) without reserving twice.',
      parameters: [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
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
        '500': {
          description: 'Internal error of the back-end (CODIGO_P 9, generic message), or an unexpected error as problem+json.',
          content: { ...json(ref('SlotReservationResponse')), 'application/problem+json': { schema: ref('Problem') } },
        },
      },
    },
  };
}

export function buildOpenApiDocument() {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Integration Console API',
      version: '1.0.0',
      description:
        'Webhook configurations for health-evaluation events and exam slot reservation. Errors other than the reservation procedure answers are RFC 9457 application/problem+json; field messages are pt-BR, or English with Accept-Language: en.',
      // An SPDX license reference: the product is not open source.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative: the document describes whichever host (staging or production) served it.
    servers: [{ url: '/', description: 'The server that answered this document' }],
    security: [{ bearerAuth: [] }, { oauth2: [] }],
    tags: [
      { name: 'Autenticação', description: 'Access tokens for API clients (OAuth 2.0 client credentials).' },
      { name: 'Webhooks', description: 'Webhook configurations for health-evaluation and proposal events (contract §4.1).' },
      {
        name: 'Agendamentos',
        description: 'Free exam slots, and their reservation or release in the scheduling back-end (contract §4.2).',
      },
      { name: 'Auditoria', description: 'The audit trail of changes, reservations and releases (staff admins).' },
      { name: 'Operação', description: 'Liveness and readiness checks for load balancers and orchestrators.' },
    ],
    paths: {
      '/api/v1/auth/token': {
        post: {
          operationId: 'issueToken',
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
      '/api/health': {
        get: {
          operationId: 'liveness',
          summary: 'Liveness: the process answers (no database access)',
          tags: ['Operação'],
          security: [{}],
          responses: {
            '200': { description: '`{"status":"ok","uptimeSeconds":…}`', content: json({ type: 'object' }) },
            '4XX': malformedRequest,
          },
        },
      },
      '/api/health/ready': {
        get: {
          operationId: 'readiness',
          summary: 'Readiness: the database and the scheduling back-end answer, with timings',
          tags: ['Operação'],
          security: [{}],
          responses: {
            '200': {
              description: '`{"status":"ready","checks":{"database":{ok,ms,dialect},"scheduling":{ok,ms,backend}}}`',
              content: json({ type: 'object' }),
            },
            '503': {
              description: 'A check failed: `"status":"not-ready"`, the failing check with an error code.',
              content: json({ type: 'object' }),
            },
            '4XX': malformedRequest,
          },
        },
      },
      '/api/v2/avaliacao-saude/configuracao-web-hook': {
        get: {
          operationId: 'listWebhookConfigurations',
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
              content: json({ type: 'array', items: ref('WebhookConfiguration') }),
            },
            ...commonProblems,
          },
        },
      },
      '/api/v2/avaliacao-saude/configuracao-web-hook/{id}': {
        parameters: [webhookIdParameter],
        get: {
          operationId: 'getWebhookConfiguration',
          summary: 'One webhook configuration',
          tags: ['Webhooks'],
          responses: {
            '200': { description: 'The configuration.', headers: etagHeader, content: json(ref('WebhookConfiguration')) },
            '400': problem('id is not a UUID.'),
            ...commonProblems,
            '404': problem('No configuration of yours has this id.'),
          },
        },
        put: {
          operationId: 'updateWebhookConfiguration',
          summary: 'Change a webhook configuration',
          tags: ['Webhooks'],
          description:
            'Every field is optional: an omitted field keeps its stored value; headers, when sent, replaces the whole list. Send If-Match with the ETag you read to refuse the change (412) when someone changed the configuration meanwhile.',
          parameters: [
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
              content: json(ref('WebhookConfiguration')),
            },
            ...bodyProblems,
            ...commonProblems,
            '404': problem('No configuration of yours has this id.'),
            '412': problem('If-Match does not match the current version.'),
          },
        },
      },
      '/api/v1/agendamentos/slots-livres': {
        get: {
          operationId: 'listFreeSlots',
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
      '/api/v1/agendamentos/procedimentos': {
        get: {
          operationId: 'listProcedures',
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
      '/api/v1/agendamentos/slots-livres/reservar': reservationOperation('reserveOrReleaseSlot', 'Reserve or release a slot'),
      '/api/v1/agendamentos/exames/slots-livres/reservas': reservationOperation(
        'reserveOrReleaseSlotSamplePath',
        'Reserve or release a slot (path of the contract’s sample requests; identical behaviour)',
      ),
      '/api/v1/agendamentos/reservas-recentes': {
        get: {
          operationId: 'listRecentReservations',
          summary: 'Recent reservations made through the service, with their state',
          tags: ['Agendamentos'],
          description:
            'From the audit trail, newest first: every successful reservation, marked released once its token was released. Patient identifiers come masked. Staff see everyone’s; an API client sees only its own.',
          parameters: queryParameters(recentReservationsQuerySchema, { limite: 'At most this many reservations.' }),
          responses: {
            '200': { description: 'Reservations, newest first.', content: json({ type: 'array', items: ref('RecentReservation') }) },
            '400': problem('A filter is invalid.'),
            ...commonProblems,
          },
        },
      },
      '/api/v1/auditoria': {
        get: {
          operationId: 'listAuditTrail',
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
    },
    components: {
      schemas: {
        WebhookUpdate: jsonSchema(webhookUpdateSchema, 'input'),
        WebhookConfiguration: jsonSchema(webhookConfigurationSchema, 'output'),
        SlotReservationRequest: jsonSchema(slotReservationSchema, 'input'),
        SlotReservationResponse: jsonSchema(slotReservationResponseSchema, 'output'),
        FreeSlot: jsonSchema(freeSlotSchema, 'output'),
        Procedure: jsonSchema(procedureSchema, 'output'),
        RecentReservation: jsonSchema(recentReservationSchema, 'output'),
        AuditEntry: jsonSchema(auditEntrySchema, 'output'),
        Problem: jsonSchema(problemSchema, 'output'),
        TokenRequest: jsonSchema(tokenRequestSchema, 'input'),
        TokenResponse: jsonSchema(tokenResponseSchema, 'output'),
        OAuthError: jsonSchema(oauthErrorSchema, 'output'),
      },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from POST /api/v1/auth/token.' },
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/api/v1/auth/token', scopes: {} } } },
        clientBasic: {
          type: 'http',
          scheme: 'basic',
          description: 'client_id and client_secret, form-urlencoded then Basic-encoded (RFC 6749 §2.3.1).',
        },
        consoleSession: { type: 'apiKey', in: 'cookie', name: 'next-auth.session-token', description: 'The console’s staff session.' },
      },
    },
  };
}
