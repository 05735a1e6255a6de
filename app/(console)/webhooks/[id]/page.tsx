import { EventToggles } from '@/components/webhooks/event-toggles';
import { OperationalEvents } from '@/components/webhooks/operational-events';
import { OPERATOR_TENANT } from '@/lib/webhooks/events/operational';
import { WebhookEditor } from '@/components/webhooks/webhook-editor';
import { WebhookIdentity } from '@/components/webhooks/webhook-identity';
import { bodySettings } from '@/lib/http/body-settings';
import { requireCapability } from '@/lib/auth/console-session';
import { env } from '@/lib/config/env';
import { webhookKeys } from '@/lib/client/webhook-query-keys';
import { PrefetchedQueries } from '@/components/console/prefetched-queries';
import { prefetchedAnswers } from '@/lib/console/prefetch';
import { getT } from '@/lib/i18n/server';
import { deliveriesOf } from '@/lib/webhooks/delivery/service';
import { deliveryListQuerySchema } from '@/lib/webhooks/delivery/contract';
import { detailOf } from '@/lib/webhooks/delivery/detail';
import { etagOf, getWebhook } from '@/lib/webhooks/configurations/service/access';

export async function generateMetadata() {
  return { title: (await getT())('webhook.editTitle') };
}

/** The id was validated by the segment's layout (a malformed one is a 404 there). */
export default async function WebhookEditPage({ params }: { params: Promise<{ id: string }> }) {
  const id = (await params).id.toLowerCase();
  const staff = await requireCapability('webhooks', `/webhooks/${id}`);
  // The configuration (with the ETag its save sends back) and the first page of its delivery log,
  // as the editor would ask the API for them; another tenant's or an unknown id is left to it.
  const stored = await getWebhook(staff, id).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  const detail = 'value' in stored ? await detailOf(stored.value) : null;
  const answers = await prefetchedAnswers([
    {
      queryKey: webhookKeys.detail(id),
      // The refusal (another tenant's, unknown) as the load's own, so it is left to the editor as before.
      load: () => {
        if ('error' in stored) throw stored.error;
        return Promise.resolve({ config: detail!, etag: etagOf(stored.value) });
      },
    },
    { queryKey: webhookKeys.deliveries(id, ''), load: () => deliveriesOf(staff, id, deliveryListQuerySchema.parse({})) },
  ]);
  return (
    <PrefetchedQueries answers={answers}>
      {/* The URL policy the PUT applies, so the form checks a URL as the server will. */}
      <WebhookEditor
        id={id}
        retentionDays={env().WEBHOOK_RETENTION_DAYS}
        urlPolicy={bodySettings().urlPolicy}
        // The identity card is the server's: what the stored configuration says, which no save changes.
        identity={detail ? <WebhookIdentity config={detail} /> : null}
        // The operator's own configuration receives the operational events, not the partners' five.
        events={'value' in stored && stored.value.config.usuarioId === OPERATOR_TENANT ? <OperationalEvents /> : <EventToggles />}
      />
    </PrefetchedQueries>
  );
}
