import { notFound } from 'next/navigation';
import { Refusal } from '@/lib/errors/refusal';
import { EventToggles } from '@/components/webhooks/event-toggles';
import { WebhookEditor } from '@/components/webhooks/webhook-editor';
import { WebhookIdentity } from '@/components/webhooks/webhook-identity';
import { bodySettings } from '@/lib/http/body-settings';
import { env } from '@/lib/config/env';
import { webhookKeys } from '@/lib/client/webhook-query-keys';
import { PrefetchedQueries } from '@/components/console/prefetched-queries';
import { prefetchedAnswers } from '@/lib/console/prefetch';
import { getT } from '@/lib/i18n/server';
import { requirePartner } from '@/lib/portal/page-session';
import { deliveriesOf } from '@/lib/webhooks/delivery/service';
import { deliveryListQuerySchema } from '@/lib/webhooks/delivery/contract';
import { detailOf } from '@/lib/webhooks/delivery/detail';
import { etagOf, getWebhook } from '@/lib/webhooks/configurations/service/access';
import { webhookIdSchema } from '@/lib/webhooks/configurations/contract';

export async function generateMetadata() {
  return { title: (await getT())('webhook.editTitle') };
}

/** One configuration of the tenant, in the console's editor: another tenant's id is not found, as for its API client. */
export default async function PortalWebhookPage({ params }: { params: Promise<{ id: string }> }) {
  const { id: raw } = await params;
  if (!webhookIdSchema.safeParse(raw).success) notFound();
  const id = raw.toLowerCase();
  const { principal } = await requirePartner();
  // Not its tenant's (or no such id): a real 404, the same for both, before anything renders.
  const stored = await getWebhook(principal, id).catch((error: unknown) => {
    if (error instanceof Refusal && error.kind === 'not-found') return undefined;
    throw error;
  });
  if (!stored) notFound();
  // The configuration and the first page of its delivery log, as the editor would ask the API for them.
  const detail = await detailOf(stored);
  const answers = await prefetchedAnswers([
    { queryKey: webhookKeys.detail(id), load: () => Promise.resolve({ config: detail, etag: etagOf(stored) }) },
    { queryKey: webhookKeys.deliveries(id, ''), load: () => deliveriesOf(principal, id, deliveryListQuerySchema.parse({})) },
  ]);
  return (
    <PrefetchedQueries answers={answers}>
      <WebhookEditor
        id={id}
        retentionDays={env().WEBHOOK_RETENTION_DAYS}
        urlPolicy={bodySettings().urlPolicy}
        identity={<WebhookIdentity config={detail} />}
        events={<EventToggles portal />}
      />
    </PrefetchedQueries>
  );
}
