import { WebhookEditor } from '@/components/webhooks/webhook-editor';
import { bodySettings } from '@/lib/http/body-settings';
import { requireCapability } from '@/lib/auth/console-session';
import { env } from '@/lib/config/env';
import { webhookKeys } from '@/lib/client/webhook-query-keys';
import { PrefetchedQueries } from '@/components/console/prefetched-queries';
import { prefetchedAnswers } from '@/lib/console/prefetch';
import { getT } from '@/lib/i18n/server';
import { deliveriesOf } from '@/lib/webhooks/delivery/service';
import { deliveryListQuerySchema } from '@/lib/webhooks/delivery-contract';
import { detailOf, etagOf, getWebhook } from '@/lib/webhooks/service';

export async function generateMetadata() {
  return { title: (await getT())('webhook.editTitle') };
}

/** The id was validated by the segment's layout (a malformed one is a 404 there). */
export default async function WebhookEditPage({ params }: { params: Promise<{ id: string }> }) {
  const id = (await params).id.toLowerCase();
  const staff = await requireCapability('webhooks', `/webhooks/${id}`);
  // The configuration (with the ETag its save sends back) and the first page of its delivery log,
  // as the editor would ask the API for them; another tenant's or an unknown id is left to it.
  const answers = await prefetchedAnswers([
    {
      queryKey: webhookKeys.detail(id),
      load: async () => {
        const stored = await getWebhook(staff, id);
        return { config: detailOf(stored), etag: etagOf(stored) };
      },
    },
    { queryKey: webhookKeys.deliveries(id, ''), load: () => deliveriesOf(staff, id, deliveryListQuerySchema.parse({})) },
  ]);
  return (
    <PrefetchedQueries answers={answers}>
      {/* The URL policy the PUT applies, so the form checks a URL as the server will. */}
      <WebhookEditor id={id} retentionDays={env().WEBHOOK_RETENTION_DAYS} urlPolicy={bodySettings().urlPolicy} />
    </PrefetchedQueries>
  );
}
