import 'server-only';
import { z } from 'zod';
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
import { queryParameters } from '@/lib/openapi/fragments';
import {
  deliveryCreatedSchema,
  deliveryDetailSchema,
  deliveryListQuerySchema,
  deliverySchema,
  MAX_BATCH_EVENTS,
  publishBatchSchema,
  publishedBatchSchema,
  publishedEventSchema,
  publishEventSchema,
  recoveryResultSchema,
  recoverySchema,
  webhookSecretSchema,
} from '@/lib/webhooks/delivery/contract';
import { deliveryHealth } from '@/lib/webhooks/delivery/health';
import { deliveryTriage } from '@/lib/webhooks/alerts/triage';
import { alertsFor } from '@/lib/webhooks/alerts/service';
import {
  alertPageSchema,
  deliveryHealthSchema,
  healthQuerySchema,
  pageQuerySchema,
  triagePageSchema,
} from '@/lib/webhooks/delivery/health-contract';
import { deliveryDoc, deliveryNotYours, webhookParams, deliveryParams } from './docs';
import { answer } from '@/lib/http/answers';

const pageParameters = queryParameters(pageQuerySchema, {
  limite: 'At most this many a page (50 by default, at most 200).',
  pagina: 'Which page, from 1.',
});
import { operation } from '@/lib/http/operation';

/** Events in, signed notifications out: publishing, the delivery log and what staff do with it. */
export const deliveryOperations = {
  /** An event from its producer: 202 with the deliveries under way, 200 for an idEvento already published. */
  publishEvent: operation(
    {
      method: 'POST',
      path: '/api/v2/avaliacao-saude/eventos',
      body: publishEventSchema,
      capability: 'events',
      responses: {
        202: answer.json(publishedEventSchema, 'Accepted; deliveries are under way.'),
        200: answer.json(publishedEventSchema, 'This idEvento was already published: the first event.'),
        429: answer.problem(
          'The producer published MAX_EVENTS_PER_SECOND events in the last second (`limite`, `janelaSegundos`); nothing was recorded. Publish it again after `Retry-After` seconds.',
        ),
      },
      doc: {
        summary: 'Publish a health-evaluation or proposal event',
        tags: ['Webhook deliveries'],
        description:
          'For the system that produces the events: an API client with the scope eventos:publicar, or a staff admin. One delivery is created for each configuration of usuarioId whose flag for tipo is on (skipped, for a later recovery, when the configuration is disabled) and sent at once, signed as Standard Webhooks specifies. The same idEvento from the same producer again answers 200 with the first event and sends nothing. A producer publishes at most MAX_EVENTS_PER_SECOND events (200 by default) in any second.',
      },
    },
    async ({ principal, body }) => {
      const [event] = await publish(principal, [await body()]);
      const { repeated, ...published } = event!;
      return repeated ? { status: 200, body: published } : { status: 202, body: published };
    },
  ),
  /** Many events in one request: 202 with each one's outcome, 200 when every one was already published. */
  publishEventBatch: operation(
    {
      method: 'POST',
      path: '/api/v2/avaliacao-saude/eventos/lote',
      body: publishBatchSchema,
      capability: 'events',
      responses: {
        202: answer.json(publishedBatchSchema, 'Accepted; the new events’ deliveries are under way.'),
        200: answer.json(publishedBatchSchema, 'Every idEvento of the batch was already published: their first events.'),
        429: answer.problem(
          'The batch would take the producer past MAX_EVENTS_PER_SECOND events in a second (`limite`, `janelaSegundos`); nothing of it was recorded. Publish it again after `Retry-After` seconds, or in smaller batches when it is larger than the limit.',
        ),
      },
      doc: {
        summary: 'Publish a batch of events',
        tags: ['Webhook deliveries'],
        description: `For a producer with many events at once: up to ${MAX_BATCH_EVENTS} events, each exactly as the single publish takes it, recorded in one transaction (all of them or, on any refusal, none). Each counts toward MAX_EVENTS_PER_SECOND, and each fans out, is signed and delivered as if published alone; a configuration that keeps events in order receives them in the order of the batch. An idEvento already published, or repeated within the batch, answers its first event (\`repetido\`) and sends nothing twice. Bad input names the event by its index (\`eventos.3.usuarioId\`).`,
      },
    },
    async ({ principal, body }) => {
      const published = await publish(principal, (await body()).eventos);
      const eventos = published.map(({ repeated, ...event }) => ({ ...event, repetido: repeated }));
      return eventos.every((event) => event.repetido) ? { status: 200, body: { eventos } } : { status: 202, body: { eventos } };
    },
  ),
  listDeliveries: operation(
    {
      method: 'GET',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/entregas',
      params: webhookParams,
      capability: 'webhooks',
      query: deliveryListQuerySchema,
      responses: { 200: answer.json(z.array(deliverySchema), 'Deliveries.'), 404: deliveryNotYours },
      doc: deliveryDoc(
        'The deliveries of a configuration, newest first',
        'Each with its status, attempts, next attempt and last answer (status, duration, the first 1 KiB of the body, error class).',
        {
          parameters: queryParameters(deliveryListQuerySchema, {
            status: 'Only deliveries in this state.',
            evento: 'Only the deliveries of this event: the producer’s idEvento, or the `evt_…` id the publish answered.',
            limite: 'At most this many.',
            antes: 'Only deliveries created before this instant (paging).',
          }),
        },
      ),
    },
    async ({ principal, params, query }) => ({ status: 200, body: await deliveriesOf(principal, params.id, query) }),
  ),
  deliveryHealth: operation(
    {
      method: 'GET',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/saude',
      params: webhookParams,
      capability: 'webhooks',
      query: healthQuerySchema,
      responses: { 200: answer.json(deliveryHealthSchema, 'The health.'), 404: deliveryNotYours },
      doc: deliveryDoc(
        'Delivery health of a configuration, hour by hour',
        'Attempts answered 2xx and attempts failed in each hour of the last 24 hours or 7 days, with the receiver’s mean answer time; the totals; and where the configuration stands now (healthy, failing since, circuit open until, switched off and why) with its backlog of due deliveries. From the delivery log, every instance’s.',
        { parameters: queryParameters(healthQuerySchema, { janela: '`24h` (default) or `7d`.' }) },
      ),
    },
    async ({ principal, params, query }) => ({ status: 200, body: await deliveryHealth(principal, params.id, query.janela) }),
  ),
  deliveryTriage: operation(
    {
      method: 'GET',
      path: '/api/v2/avaliacao-saude/saude-entregas',
      capability: 'webhooks',
      query: pageQuerySchema,
      responses: { 200: answer.json(triagePageSchema, 'A page of configurations.') },
      doc: {
        summary: 'Delivery health of every configuration, worst first, a page at a time',
        tags: ['Webhook deliveries'],
        description:
          'For triage: the configurations the caller may see (an API client: its own tenant’s), each with its last 24 hours’ success rate and attempts hour by hour, worst first: an open alert, then failing, circuit open, switched off, a backlog due, and healthy last. Within each, tenants take turns (every tenant’s first before any tenant’s second), then the longest-standing first, so one tenant’s number of configurations never pushes another’s incident off the first page. `total` counts every page.',
        parameters: pageParameters,
      },
    },
    async ({ principal, query }) => ({ status: 200, body: await deliveryTriage(principal, query) }),
  ),
  listDeliveryAlerts: operation(
    {
      method: 'GET',
      path: '/api/v2/avaliacao-saude/alertas-entregas',
      capability: 'webhooks',
      query: pageQuerySchema,
      responses: { 200: answer.json(alertPageSchema, 'A page of open alerts.') },
      doc: {
        summary: 'Open delivery alerts, worst first, a page at a time',
        tags: ['Webhook deliveries'],
        description:
          'Configurations the caller may see that were switched off automatically (a 410, or failing too long) or whose receiver has been down (circuit open) for WEBHOOK_ALERT_CIRCUIT_MINUTES, while the incident lasts. Tenants take turns (each tenant’s worst alert before any tenant’s second); within a turn, switched off before receiver down, then the oldest first. Staff who look after webhooks are also told once per incident by e-mail when the server sends mail.',
        parameters: pageParameters,
      },
    },
    async ({ principal, query }) => ({ status: 200, body: await alertsFor(principal, query) }),
  ),
  getDelivery: operation(
    {
      method: 'GET',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/entregas/{entregaId}',
      params: deliveryParams,
      capability: 'webhooks',
      responses: { 200: answer.json(deliveryDetailSchema, 'The delivery.'), 404: deliveryNotYours },
      doc: deliveryDoc(
        'One delivery with every attempt',
        'The request sent (custom header values masked) and each attempt’s status, duration, answer excerpt and error.',
      ),
    },
    async ({ principal, params }) => ({ status: 200, body: await deliveryDetail(principal, params.id, params.entregaId) }),
  ),
  redeliver: operation(
    {
      method: 'POST',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/entregas/{entregaId}/reenvio',
      params: deliveryParams,
      capability: 'webhooks',
      responses: {
        202: answer.json(deliveryCreatedSchema, 'Queued.'),
        404: deliveryNotYours,
        409: answer.problem('An attempt of this delivery is in progress (`Retry-After`: seconds until it ends at the latest).'),
      },
      doc: deliveryDoc(
        'Send a delivery again now',
        'A new attempt at once, with the same webhook-id, so the receiver can tell it is the same message. While an attempt of it is in flight the answer is 409 with `Retry-After`: ask again once it ends.',
      ),
    },
    async ({ principal, params }) => ({ status: 202, body: await redeliver(principal, params.id, params.entregaId) }),
  ),
  recoverDeliveries: operation(
    {
      method: 'POST',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/recuperacao',
      body: recoverySchema,
      params: webhookParams,
      capability: 'webhooks',
      responses: { 202: answer.json(recoveryResultSchema, 'How many deliveries were queued.'), 404: deliveryNotYours },
      doc: deliveryDoc(
        'Send again what failed or was skipped since a date',
        'For a receiver back after an outage, or a configuration enabled again. Delivery history is kept WEBHOOK_RETENTION_DAYS (90 by default): older deliveries are gone and cannot be recovered.',
      ),
    },
    async ({ principal, params, body }) => {
      const { desde } = await body();
      return { status: 202, body: await recover(principal, params.id, desde) };
    },
  ),
  sendTestEvent: operation(
    {
      method: 'POST',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/teste',
      params: webhookParams,
      capability: 'webhooks',
      responses: {
        202: answer.json(deliveryCreatedSchema, 'The test delivery.'),
        404: deliveryNotYours,
        429: answer.problem(
          'The configuration got MAX_TEST_EVENTS_PER_MINUTE test events in the last 60 seconds (`limite`, `janelaSegundos`); send the next after `Retry-After` seconds.',
        ),
      },
      doc: deliveryDoc(
        'Send a test event',
        'A webhook.teste event to this configuration alone, even while it is disabled; follow it with the delivery’s id. At most MAX_TEST_EVENTS_PER_MINUTE (5 by default) to one configuration in any 60 seconds.',
      ),
    },
    async ({ principal, params }) => ({ status: 202, body: await sendTestEvent(principal, params.id) }),
  ),
  getWebhookSecret: operation(
    {
      method: 'GET',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/segredo',
      params: webhookParams,
      capability: 'webhooks',
      sensitive: true,
      responses: { 200: answer.json(webhookSecretSchema, 'The secret.'), 404: deliveryNotYours },
      doc: deliveryDoc(
        'The configuration’s signing secret',
        'whsec_ + base64 of the HMAC-SHA256 key that signs webhook-signature (Standard Webhooks).',
      ),
    },
    async ({ principal, params }) => ({ status: 200, body: await secretOf(principal, params.id) }),
  ),
  rotateWebhookSecret: operation(
    {
      method: 'POST',
      path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/segredo/rotacao',
      params: webhookParams,
      capability: 'webhooks',
      responses: { 200: answer.json(webhookSecretSchema, 'The new secret.'), 404: deliveryNotYours },
      doc: deliveryDoc(
        'Rotate the signing secret',
        'A new secret signs from now on; the previous one keeps signing beside it (a second signature) for WEBHOOK_SECRET_OVERLAP_HOURS, so a receiver can switch without losing messages.',
      ),
    },
    async ({ principal, params }) => ({ status: 200, body: await rotateSecret(principal, params.id) }),
  ),
};
