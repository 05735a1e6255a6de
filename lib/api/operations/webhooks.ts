import 'server-only';
import { Refusal } from '@/lib/errors/refusal';
import { ApiError, problemOf } from '@/lib/http/errors';
import { jsonResponse } from '@/lib/http/problem';
import { FieldRejected } from '@/lib/validation/field-rejected';
import { hasControlCharacters } from '@/lib/validation/text';
import { isPolicyRefusal } from '@/lib/webhooks/policy-codes';
import {
  createWebhook,
  deleteWebhook,
  detailOf,
  etagOf,
  getWebhook,
  recordRefusedUpdate,
  searchWebhooks,
  updateWebhook,
  viewOf,
} from '@/lib/webhooks/service';
import { ref } from '@/lib/openapi/components';
import { bodyProblems, commonProblems, etagHeader, json, problem } from '@/lib/openapi/fragments';
import {
  webhookCreateSchema,
  webhookCreateSchemaFor,
  webhookDetailSchema,
  webhookUpdateSchema,
  webhookUpdateSchemaFor,
  webhookViewSchema,
} from '@/lib/webhooks/contract';
import { apiPath } from '@/lib/api/paths';
import { routes } from '@/lib/api/routes';
import { webhookParams } from './docs';
import { operation } from '../operation';

/** Webhook configurations (contract §4.1 and the operations around it). */
export const webhookOperations = {
  /** The caller's configurations; `?q=` filters by URL, usuarioId or clientId. */
  listWebhookConfigurations: operation(
    {
      method: 'GET',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook',
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
            content: json({ type: 'array', items: ref(webhookViewSchema) }),
          },
          ...commonProblems,
        },
      },
    },
    async ({ request, principal }) => {
      const q = new URL(request.url).searchParams.get('q');
      if (q !== null && hasControlCharacters(q))
        throw new FieldRejected('q', 'controlCharacters', 'The query parameter q has control characters.', '');
      const search = q?.trim().slice(0, 200) || undefined;
      return jsonResponse(await searchWebhooks(principal, search));
    },
  ),
  /** A new configuration: 201 with the object (and `ativo`), its ETag and Location. */
  createWebhookConfiguration: operation(
    {
      method: 'POST',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook',
      body: ({ urlPolicy }) => webhookCreateSchemaFor(urlPolicy),
      capability: 'webhooks',
      doc: {
        summary: 'Create a webhook configuration',
        tags: ['Webhooks'],
        description:
          'The PUT’s rules with url required. An API client creates one for its own tenant (usuarioId and sistemaOrigem omitted or its own); staff with the webhooks role name the tenant. Omitted events are off. It gets its own signing secret. A tenant has at most MAX_WEBHOOKS_PER_TENANT configurations (100 by default), whoever creates them.',
        requestBody: { required: true, content: json(ref(webhookCreateSchema)) },
        responses: {
          '201': {
            description: 'Created; Location names it.',
            headers: {
              ...etagHeader,
              Location: { description: 'The new configuration’s path.', schema: { type: 'string' } },
            },
            content: json(ref(webhookViewSchema)),
          },
          ...bodyProblems,
          ...commonProblems,
          '409': problem(
            'The tenant already has the most configurations allowed (MAX_WEBHOOKS_PER_TENANT); `limite` says how many. Delete one first: waiting does not help.',
          ),
        },
      },
    },
    async ({ principal, body }) => {
      const stored = await createWebhook(principal, await body());
      return jsonResponse(viewOf(stored), {
        status: 201,
        headers: { ETag: etagOf(stored), Location: apiPath(routes.getWebhookConfiguration, { id: stored.config.id }) },
      });
    },
  ),
  getWebhookConfiguration: operation(
    {
      method: 'GET',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}',
      params: webhookParams,
      capability: 'webhooks',
      doc: {
        summary: 'One webhook configuration',
        tags: ['Webhooks'],
        responses: {
          '200': { description: 'The configuration.', headers: etagHeader, content: json(ref(webhookDetailSchema)) },
          '400': problem('id is not a UUID.'),
          ...commonProblems,
          '404': problem('No configuration of yours has this id.'),
        },
      },
    },
    async ({ principal, params }) => {
      const stored = await getWebhook(principal, params.id);
      return jsonResponse(detailOf(stored), { headers: { ETag: etagOf(stored) } });
    },
  ),
  updateWebhookConfiguration: operation(
    {
      method: 'PUT',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}',
      body: ({ urlPolicy }) => webhookUpdateSchemaFor(urlPolicy),
      params: webhookParams,
      capability: 'webhooks',
      doc: {
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
        requestBody: { required: true, content: json(ref(webhookUpdateSchema)) },
        responses: {
          '200': {
            description: 'The whole configuration after the change.',
            headers: etagHeader,
            content: json(ref(webhookViewSchema)),
          },
          ...bodyProblems,
          ...commonProblems,
          '404': problem('No configuration of yours has this id.'),
          '412': problem('If-Match does not match the current version.'),
        },
      },
    },
    async ({ request, principal, params: { id }, body }) => {
      try {
        const update = await body();
        const stored = await updateWebhook(principal, id, update, request.headers.get('if-match'));
        return jsonResponse(viewOf(stored), { headers: { ETag: etagOf(stored) } });
      } catch (error) {
        // A stale If-Match, or a URL or header the safety policy refused, goes in the audit trail (the
        // change itself rolled back); a malformed body does not.
        const refused =
          error instanceof Refusal && error.kind === 'stale'
            ? problemOf(error)
            : error instanceof ApiError && isPolicyRefusal(error.extra.errors)
              ? error
              : undefined;
        if (refused)
          await recordRefusedUpdate(principal, id, {
            httpStatus: refused.status,
            problem: refused.type,
            errors: refused.extra.errors ?? [],
          });
        throw error;
      }
    },
  ),
  deleteWebhookConfiguration: operation(
    {
      method: 'DELETE',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}',
      params: webhookParams,
      capability: 'webhooks',
      doc: {
        summary: 'Delete a webhook configuration',
        tags: ['Webhooks'],
        description: 'With its delivery log. Afterwards the id answers 404.',
        responses: {
          '204': { description: 'Deleted.' },
          '400': problem('id is not a UUID.'),
          ...commonProblems,
          '404': problem('No configuration of yours has this id.'),
        },
      },
    },
    async ({ principal, params }) => {
      await deleteWebhook(principal, params.id);
      return new Response(null, { status: 204 });
    },
  ),
};
