import { standardProblems } from '@/lib/http/answers';
import type { Operation } from '@/lib/http/operation';
import { componentSchemas, ref } from './components';
import { json, malformedRequest, pathParameters, problem, responseDoc } from './fragments';
import { OPERATIONAL_WEBHOOKS_TAG, webhookCatalogue, WEBHOOKS_TAG } from './webhooks';

/**
 * The OpenAPI 3.1 document of the API: the operations it is handed (lib/api/operations.ts), each under its
 * path and method, with the component schemas generated from the same zod schemas the routes
 * validate with and answer (zod's own JSON Schema 2020-12 output, the dialect OpenAPI 3.1 uses).
 * Request bodies are rendered as inputs (what a caller may send), answers as outputs. Each
 * operation's responses are its declared answers (lib/http/answers.ts), the wrapper checks its
 * answers against, and the problems every operation of its kind may answer. Rules JSON Schema
 * cannot say are in the descriptions; the server enforces them and answers 400 naming the field.
 */
function documentedPaths(operations: Readonly<Record<string, Operation>>): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [operationId, operation] of Object.entries(operations)) {
    if (!operation.doc) continue;
    const { parameters = [], ...doc } = operation.doc as { parameters?: unknown[] };
    const allParameters = [...(operation.params ? pathParameters(operation.params) : []), ...parameters];
    paths[operation.path] = {
      ...paths[operation.path],
      [operation.method.toLowerCase()]: {
        operationId,
        ...(allParameters.length ? { parameters: allParameters } : {}),
        ...requestBodyOf(operation),
        ...doc,
        responses: responsesOf(operation),
      },
    };
  }
  return paths;
}

/** A fixed JSON body by its component; a settings-dependent one (a factory) is documented by the operation's `doc`. */
function requestBodyOf(operation: Operation) {
  if (!operation.body || typeof operation.body === 'function') return {};
  return { requestBody: { required: true, content: json(ref(operation.body)) } };
}

/** The declared answers, then the problems the operation may answer without declaring them (a path's own 4XX at least). */
function responsesOf(operation: Operation): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, declared] of Object.entries(operation.responses)) responses[status] = responseDoc(declared);
  for (const [status, description] of Object.entries(standardProblems(operation))) responses[status] ??= problem(description);
  if (!Object.keys(responses).some((status) => status.startsWith('4'))) responses['4XX'] = malformedRequest;
  return responses;
}

export function buildOpenApiDocument(operations: Readonly<Record<string, Operation>>) {
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
      { name: 'Authentication', description: 'Access tokens for API clients (OAuth 2.0 client credentials).' },
      { name: 'Webhooks', description: 'Webhook configurations for health-evaluation and proposal events (contract §4.1).' },
      {
        name: 'Webhook deliveries',
        description:
          'Events in, signed notifications out (Standard Webhooks): publishing, the delivery log, redelivery, recovery, test events and signing secrets.',
      },
      {
        name: 'Scheduling',
        description: 'Free exam slots, and their reservation or release in the scheduling back-end (contract §4.2).',
      },
      { name: 'Administration', description: 'API clients and staff accounts, managed by staff admins.' },
      { name: 'Audit', description: 'The audit trail of changes, reservations and releases (staff admins).' },
      { name: 'Operations', description: 'Liveness and readiness checks for load balancers and orchestrators.' },
      {
        name: WEBHOOKS_TAG,
        description:
          'What this service sends to your receiver (Standard Webhooks): one entry per event type, with its body, its signature headers and what each answer makes the sender do.',
      },
      {
        name: OPERATIONAL_WEBHOOKS_TAG,
        description:
          'What this service sends to the operator’s own receiver (OPERATIONAL_WEBHOOK_URL) about partners’ configurations: switched off, receiver down, recovered, a delivery exhausted. Signed and retried like every notification.',
      },
    ],
    paths: documentedPaths(operations),
    webhooks: webhookCatalogue(),
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from POST /api/v1/auth/token.' },
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: '/api/v1/auth/token',
              scopes: {
                webhooks: 'Webhook configurations and their deliveries',
                scheduling: 'Free slots and reservations',
                'eventos:publicar': 'Publish health-evaluation and proposal events',
              },
            },
          },
        },
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
