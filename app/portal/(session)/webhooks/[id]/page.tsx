import { notFound } from 'next/navigation';
import { WebhookPage } from '@/components/webhooks/webhook-page';
import { getLocale, getT } from '@/lib/i18n/server';
import { requirePartner } from '@/lib/portal/page-session';
import { webhookIdSchema } from '@/lib/webhooks/configurations/contract';

export async function generateMetadata() {
  return { title: (await getT())('webhook.editTitle') };
}

/** One configuration of the tenant, in the console's editor: another tenant's id is not found, as for its API client. */
export default async function PortalWebhookPage({ params }: { params: Promise<{ id: string }> }) {
  const { id: raw } = await params;
  if (!webhookIdSchema.safeParse(raw).success) notFound();
  const { principal } = await requirePartner();
  return <WebhookPage id={raw.toLowerCase()} caller={{ principal, locale: await getLocale() }} portal />;
}
