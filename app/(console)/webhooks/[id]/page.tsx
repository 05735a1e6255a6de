import { WebhookPage } from '@/components/webhooks/webhook-page';
import { requireCapability } from '@/lib/auth/console-session';
import { getLocale, getT } from '@/lib/i18n/server';

export async function generateMetadata() {
  return { title: (await getT())('webhook.editTitle') };
}

/** The id was validated by the segment's layout (a malformed one is a 404 there). */
export default async function WebhookEditPage({ params }: { params: Promise<{ id: string }> }) {
  const id = (await params).id.toLowerCase();
  const principal = await requireCapability('webhooks', `/webhooks/${id}`);
  return <WebhookPage id={id} caller={{ principal, locale: await getLocale() }} />;
}
