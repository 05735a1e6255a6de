import 'server-only';
import { FieldRejected } from '@/lib/validation/field-rejected';
import { hasControlCharacters } from '@/lib/validation/text';
import { isPolicyRefusal } from '@/lib/webhooks/configurations/policy-codes';
import { createWebhook } from '@/lib/webhooks/configurations/service/create';
import { deleteWebhook } from '@/lib/webhooks/configurations/service/delete';
import { detailOf } from '@/lib/webhooks/delivery/detail';
import { etagOf, getWebhook, searchWebhooks } from '@/lib/webhooks/configurations/service/access';
import { recordRefusedUpdate, updateWebhook } from '@/lib/webhooks/configurations/service/update';
import { viewOf } from '@/lib/webhooks/configurations/service/views';
import { recoveryOffer } from '@/lib/webhooks/delivery/service';
import { ref } from '@/lib/openapi/components';
import { etagHeader, json } from '@/lib/openapi/fragments';
import {
  contactConfirmationSchema,
  webhookCreateSchema,
  webhookCreateSchemaFor,
  webhookDetailSchema,
  webhookUpdateSchema,
  webhookUpdateSchemaFor,
  webhookViewSchema,
} from '@/lib/webhooks/configurations/contract';
import { z } from 'zod';
import { apiPath } from '@/lib/http/paths';
import { routes } from '@/lib/api/routes';
import { answer } from '@/lib/http/answers';
import { notYours, webhookParams } from './docs';
import { operation } from '@/lib/http/operation';
import { confirmContact } from '@/lib/webhooks/configurations/contact-confirmation';
import { wireWebhooks } from '@/lib/webhooks/wiring';

// A process may serve these operations without the start (lib/startup.ts) having run in its bundle.
wireWebhooks();

/** Said by a PUT whose new `url` named another broker, so the stored login was dropped (issue 43). */
const CREDENTIALS_DROPPED_HEADER = 'Credenciais-Descartadas';
const credentialsDroppedHeaderDoc = {
  description:
    '`true` when the stored broker login was dropped because the `url` now names another broker (kind, TLS, host, port or virtual host) and the body sent no `credenciais`; absent otherwise.',
  schema: { type: 'string', enum: ['true'] },
};

/** Webhook configurations (contract §4.1 and the operations around it). */
export const webhookOperations = {
  /** The caller's configurations; `?q=` filters by URL, usuarioId or clientId. */
  listWebhookConfigurations: operation(
    {
      method: 'GET',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook',
      capability: 'webhooks',
      responses: {
        200: answer.json(z.array(webhookViewSchema), 'The configurations of your usuarioId.'),
        400: answer.problem('q has control characters.'),
      },
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
      },
    },
    async ({ request, principal }) => {
      const q = new URL(request.url).searchParams.get('q');
      if (q !== null && hasControlCharacters(q))
        throw new FieldRejected('q', 'controlCharacters', 'The query parameter q has control characters.', '');
      const search = q?.trim().slice(0, 200) || undefined;
      return { status: 200, body: await searchWebhooks(principal, search) };
    },
  ),
  /** A new configuration: 201 with the object (and `ativo`), its ETag and Location. */
  createWebhookConfiguration: operation(
    {
      method: 'POST',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook',
      body: ({ urlPolicy }) => webhookCreateSchemaFor(urlPolicy),
      capability: 'webhooks',
      responses: {
        201: answer.json(webhookViewSchema, 'Created; Location names it.', {
          headers: { ...etagHeader, Location: { description: 'The new configuration’s path.', schema: { type: 'string' } } },
        }),
        409: answer.problem(
          'The tenant already has the most configurations allowed (MAX_WEBHOOKS_PER_TENANT); `limite` says how many. Delete one first: waiting does not help.',
        ),
      },
      doc: {
        summary: 'Create a webhook configuration',
        tags: ['Webhooks'],
        description:
          'The PUT’s rules with url required. An API client creates one for its own tenant (usuarioId and sistemaOrigem omitted or its own); staff with the webhooks role name the tenant. Omitted events are off. It gets its own signing secret. A tenant has at most MAX_WEBHOOKS_PER_TENANT configurations (100 by default), whoever creates them.',
        requestBody: { required: true, content: json(ref(webhookCreateSchema)) },
      },
    },
    async ({ principal, body }) => {
      const stored = await createWebhook(principal, await body());
      return {
        status: 201,
        body: viewOf(stored),
        headers: { ETag: etagOf(stored), Location: apiPath(routes.getWebhookConfiguration, { id: stored.config.id }) },
      };
    },
  ),
  getWebhookConfiguration: operation(
    {
      method: 'GET',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}',
      params: webhookParams,
      capability: 'webhooks',
      responses: { 200: answer.json(webhookDetailSchema, 'The configuration.', { headers: etagHeader }), 404: notYours },
      doc: { summary: 'One webhook configuration', tags: ['Webhooks'] },
    },
    async ({ principal, params }) => {
      const stored = await getWebhook(principal, params.id);
      return { status: 200, body: await detailOf(stored), headers: { ETag: etagOf(stored) } };
    },
  ),
  updateWebhookConfiguration: operation(
    {
      method: 'PUT',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}',
      body: ({ urlPolicy }) => webhookUpdateSchemaFor(urlPolicy),
      params: webhookParams,
      capability: 'webhooks',
      responses: {
        200: answer.json(webhookViewSchema, 'The whole configuration after the change.', {
          headers: { ...etagHeader, [CREDENTIALS_DROPPED_HEADER]: credentialsDroppedHeaderDoc },
        }),
        404: notYours,
        412: answer.problem('If-Match does not match the current version.'),
      },
      doc: {
        summary: 'Change a webhook configuration',
        tags: ['Webhooks'],
        description:
          'Every field is optional: an omitted field keeps its stored value; headers, when sent, replaces the whole list. A broker login (`credenciais`) belongs to its broker: a `url` with another kind, TLS, host, port or virtual host drops the stored one unless the body sends `credenciais` again (the answer then says `Credenciais-Descartadas: true`). Send If-Match with the ETag you read to refuse the change (412) when someone changed the configuration meanwhile.',
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
      },
    },
    async ({ request, principal, params: { id }, body }) => {
      const update = await body();
      const stored = await updateWebhook(principal, id, update, request.headers.get('if-match'));
      const headers: Record<string, string> = { ETag: etagOf(stored) };
      if (stored.credentialsDropped) headers[CREDENTIALS_DROPPED_HEADER] = 'true';
      // Switched (or kept) on: offer to send again what was skipped while off.
      const offer = update.ativo === true && stored.state.enabled ? await recoveryOffer(id) : undefined;
      return { status: 200, body: { ...viewOf(stored), ...(offer ? { recuperacaoSugerida: offer } : {}) }, headers };
    },
    {
      // A stale If-Match, or a URL or header the safety policy refused, goes in the audit trail (the
      // change itself rolled back); a malformed body does not.
      onRefused: async ({ status, type, errors }, { principal, params }) => {
        if (status === 412 || isPolicyRefusal(errors))
          await recordRefusedUpdate(principal, params.id, { httpStatus: status, problem: type, errors });
      },
    },
  ),
  /** The public end of the link e-mailed to a new technical contact: no session, the token is the credential. */
  confirmContactEmail: operation(
    {
      method: 'POST',
      path: '/api/v2/avaliacao-saude/contato-tecnico/confirmacao',
      body: contactConfirmationSchema,
      capability: 'public',
      responses: {
        204: answer.empty('Confirmed: the contact is told when deliveries are switched off automatically and back on.'),
        503: answer.problem('The database is unavailable for a moment; retry after Retry-After seconds.'),
      },
      doc: {
        summary: 'Confirm a technical contact with its e-mailed link',
        tags: ['Webhooks'],
        security: [],
        description:
          'Setting `emailContato` e-mails the address one single-use link (valid 48 hours); its page calls this. Until then the address is sent nothing else. An invalid, used or expired token is a 400 naming `token`.',
      },
    },
    async (_request, _params, body) => {
      await confirmContact((await body()).token);
      return { status: 204 };
    },
  ),
  deleteWebhookConfiguration: operation(
    {
      method: 'DELETE',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}',
      params: webhookParams,
      capability: 'webhooks',
      responses: {
        204: answer.empty('Deleted.'),
        404: notYours,
        409: answer.problem('The operator’s own configuration: OPERATIONAL_WEBHOOK_URL decides it, and it is never deleted.'),
      },
      doc: {
        summary: 'Delete a webhook configuration',
        tags: ['Webhooks'],
        description:
          'With its delivery log. Afterwards the id answers 404. The operator’s configuration (operational notifications) is refused with 409: unset OPERATIONAL_WEBHOOK_URL to stop them, or switch it off.',
      },
    },
    async ({ principal, params }) => {
      await deleteWebhook(principal, params.id);
      return { status: 204 };
    },
  ),
};
