import 'server-only';
import { jsonResponse } from '@/lib/http/problem';
import {
  deliveriesOf,
  deliveryDetail,
  publish,
  recover,
  redeliver,
  rotateSecret,
  secretOf,
  sendTestEvent,
} from '@/lib/webhooks/delivery/service';
import { ref } from '@/lib/openapi/components';
import { bodyProblems, commonProblems, json, problem, queryParameters } from '@/lib/openapi/fragments';
import {
  deliveryCreatedSchema,
  deliveryDetailSchema,
  deliveryListQuerySchema,
  deliverySchema,
  publishedEventSchema,
  publishEventSchema,
  recoveryResultSchema,
  recoverySchema,
  webhookSecretSchema,
} from '@/lib/webhooks/delivery-contract';
import { deliveryHealth, deliveryTriage } from '@/lib/webhooks/delivery/health';
import { alertsFor } from '@/lib/webhooks/alerts/service';
import {
  deliveryAlertSchema,
  deliveryHealthSchema,
  healthQuerySchema,
  pageQuerySchema,
  triageItemSchema,
} from '@/lib/webhooks/health-contract';
import { deliveryDoc, webhookParams, deliveryParams, pageDoc } from './docs';

const pageParameters = queryParameters(pageQuerySchema, {
  limite: 'At most this many a page (50 by default, at most 200).',
  pagina: 'Which page, from 1.',
});
import { operation } from '../operation';

/** Events in, signed notifications out: publishing, the delivery log and what staff do with it. */
export const deliveryOperations = {
  /** An event from its producer: 202 with the deliveries under way, 200 for an idEvento already published. */
  publishEvent: operation(
    {
      method: 'POST',
      path: '/api/v2/avaliacao-saude/eventos',
      body: publishEventSchema,
      capability: 'events',
      doc: {
        summary: 'Publish a health-evaluation or proposal event',
        tags: ['Entregas de webhook'],
        description:
          'For the system that produces the events: an API client with the scope eventos:publicar, or a staff admin. One delivery is created for each configuration of usuarioId whose flag for tipo is on (skipped, for a later recovery, when the configuration is disabled) and sent at once, signed as Standard Webhooks specifies. The same idEvento from the same producer again answers 200 with the first event and sends nothing. A producer publishes at most MAX_EVENTS_PER_SECOND events (200 by default) in any second.',
        requestBody: { required: true, content: json(ref(publishEventSchema)) },
        responses: {
          '202': { description: 'Accepted; deliveries are under way.', content: json(ref(publishedEventSchema)) },
          '200': { description: 'This idEvento was already published: the first event.', content: json(ref(publishedEventSchema)) },
          ...bodyProblems,
          ...commonProblems,
          '429': problem(
            'The producer published MAX_EVENTS_PER_SECOND events in the last second (`limite`, `janelaSegundos`); nothing was recorded. Publish it again after `Retry-After` seconds.',
          ),
        },
      },
    },
    async ({ principal, body }) => {
      const { repeated, ...published } = await publish(principal, await body());
      return jsonResponse(published, { status: repeated ? 200 : 202 });
    },
  ),
  listDeliveries: operation(
    {
      method: 'GET',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/entregas',
      params: webhookParams,
      capability: 'webhooks',
      query: deliveryListQuerySchema,
      doc: deliveryDoc(
        'The deliveries of a configuration, newest first',
        'Each with its status, attempts, next attempt and last answer (status, duration, the first 1 KiB of the body, error class).',
        {
          '200': { description: 'Deliveries.', content: json({ type: 'array', items: ref(deliverySchema) }) },
          '400': problem('A filter is invalid.'),
        },
        {
          parameters: [
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
    async ({ principal, params, query }) => jsonResponse(await deliveriesOf(principal, params.id, query)),
  ),
  deliveryHealth: operation(
    {
      method: 'GET',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/saude',
      params: webhookParams,
      capability: 'webhooks',
      query: healthQuerySchema,
      doc: deliveryDoc(
        'Delivery health of a configuration, hour by hour',
        'Attempts answered 2xx and attempts failed in each hour of the last 24 hours or 7 days, with the receiver’s mean answer time; the totals; and where the configuration stands now (healthy, failing since, circuit open until, switched off and why) with its backlog of due deliveries. From the delivery log, every instance’s.',
        {
          '200': { description: 'The health.', content: json(ref(deliveryHealthSchema)) },
          '400': problem('The window is invalid.'),
        },
        { parameters: [...queryParameters(healthQuerySchema, { janela: '`24h` (default) or `7d`.' })] },
      ),
    },
    async ({ principal, params, query }) => jsonResponse(await deliveryHealth(principal, params.id, query.janela)),
  ),
  deliveryTriage: operation(
    {
      method: 'GET',
      path: '/api/v2/avaliacao-saude/saude-entregas',
      capability: 'webhooks',
      query: pageQuerySchema,
      doc: {
        summary: 'Delivery health of every configuration, worst first, a page at a time',
        tags: ['Entregas de webhook'],
        description:
          'For triage: the configurations the caller may see (an API client: its own tenant’s), each with its last 24 hours’ success rate and attempts hour by hour, worst first: an open alert, then failing, circuit open, switched off, a backlog due, and healthy last. Within each, tenants take turns (every tenant’s first before any tenant’s second), then the longest-standing first, so one tenant’s number of configurations never pushes another’s incident off the first page. `total` counts every page.',
        parameters: pageParameters,
        responses: {
          '200': { description: 'A page of configurations.', content: json(pageDoc(triageItemSchema)) },
          '400': problem('limite or pagina is invalid.'),
          ...commonProblems,
        },
      },
    },
    async ({ principal, query }) => jsonResponse(await deliveryTriage(principal, query)),
  ),
  listDeliveryAlerts: operation(
    {
      method: 'GET',
      path: '/api/v2/avaliacao-saude/alertas-entregas',
      capability: 'webhooks',
      query: pageQuerySchema,
      doc: {
        summary: 'Open delivery alerts, worst first, a page at a time',
        tags: ['Entregas de webhook'],
        description:
          'Configurations the caller may see that were switched off automatically (a 410, or failing too long) or whose receiver has been down (circuit open) for WEBHOOK_ALERT_CIRCUIT_MINUTES, while the incident lasts. Tenants take turns (each tenant’s worst alert before any tenant’s second); within a turn, switched off before receiver down, then the oldest first. Staff who look after webhooks are also told once per incident by e-mail when the server sends mail.',
        parameters: pageParameters,
        responses: {
          '200': { description: 'A page of open alerts.', content: json(pageDoc(deliveryAlertSchema)) },
          '400': problem('limite or pagina is invalid.'),
          ...commonProblems,
        },
      },
    },
    async ({ principal, query }) => jsonResponse(await alertsFor(principal, query)),
  ),
  getDelivery: operation(
    {
      method: 'GET',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/entregas/{entregaId}',
      params: deliveryParams,
      capability: 'webhooks',
      doc: deliveryDoc(
        'One delivery with every attempt',
        'The request sent (custom header values masked) and each attempt’s status, duration, answer excerpt and error.',
        { '200': { description: 'The delivery.', content: json(ref(deliveryDetailSchema)) } },
      ),
    },
    async ({ principal, params }) => jsonResponse(await deliveryDetail(principal, params.id, params.entregaId)),
  ),
  redeliver: operation(
    {
      method: 'POST',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/entregas/{entregaId}/reenvio',
      params: deliveryParams,
      capability: 'webhooks',
      doc: deliveryDoc(
        'Send a delivery again now',
        'A new attempt at once, with the same webhook-id, so the receiver can tell it is the same message. While an attempt of it is in flight the answer is 409 with `Retry-After`: ask again once it ends.',
        {
          '202': { description: 'Queued.', content: json(ref(deliveryCreatedSchema)) },
          '409': problem('An attempt of this delivery is in progress (`Retry-After`: seconds until it ends at the latest).'),
        },
      ),
    },
    async ({ principal, params }) => jsonResponse(await redeliver(principal, params.id, params.entregaId), { status: 202 }),
  ),
  recoverDeliveries: operation(
    {
      method: 'POST',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/recuperacao',
      body: recoverySchema,
      params: webhookParams,
      capability: 'webhooks',
      doc: deliveryDoc(
        'Send again what failed or was skipped since a date',
        'For a receiver back after an outage, or a configuration enabled again. Delivery history is kept WEBHOOK_RETENTION_DAYS (90 by default): older deliveries are gone and cannot be recovered.',
        { '202': { description: 'How many deliveries were queued.', content: json(ref(recoveryResultSchema)) }, ...bodyProblems },
        { requestBody: { required: true, content: json(ref(recoverySchema)) } },
      ),
    },
    async ({ principal, params, body }) => {
      const { desde } = await body();
      return jsonResponse(await recover(principal, params.id, desde), { status: 202 });
    },
  ),
  sendTestEvent: operation(
    {
      method: 'POST',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/teste',
      params: webhookParams,
      capability: 'webhooks',
      doc: deliveryDoc(
        'Send a test event',
        'A webhook.teste event to this configuration alone, even while it is disabled; follow it with the delivery’s id. At most MAX_TEST_EVENTS_PER_MINUTE (5 by default) to one configuration in any 60 seconds.',
        {
          '202': { description: 'The test delivery.', content: json(ref(deliveryCreatedSchema)) },
          '429': problem(
            'The configuration got MAX_TEST_EVENTS_PER_MINUTE test events in the last 60 seconds (`limite`, `janelaSegundos`); send the next after `Retry-After` seconds.',
          ),
        },
      ),
    },
    async ({ principal, params }) => jsonResponse(await sendTestEvent(principal, params.id), { status: 202 }),
  ),
  getWebhookSecret: operation(
    {
      method: 'GET',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/segredo',
      params: webhookParams,
      capability: 'webhooks',
      doc: deliveryDoc(
        'The configuration’s signing secret',
        'whsec_ + base64 of the HMAC-SHA256 key that signs webhook-signature (Standard Webhooks).',
        { '200': { description: 'The secret.', content: json(ref(webhookSecretSchema)) } },
      ),
    },
    async ({ principal, params }) => jsonResponse(await secretOf(principal, params.id)),
  ),
  rotateWebhookSecret: operation(
    {
      method: 'POST',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/segredo/rotacao',
      params: webhookParams,
      capability: 'webhooks',
      doc: deliveryDoc(
        'Rotate the signing secret',
        'A new secret signs from now on; the previous one keeps signing beside it (a second signature) for WEBHOOK_SECRET_OVERLAP_HOURS, so a receiver can switch without losing messages.',
        { '200': { description: 'The new secret.', content: json(ref(webhookSecretSchema)) } },
      ),
    },
    async ({ principal, params }) => jsonResponse(await rotateSecret(principal, params.id)),
  ),
};
