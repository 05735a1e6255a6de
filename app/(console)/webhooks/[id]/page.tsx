import { WebhookEditor } from '@/components/webhooks/webhook-editor';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata() {
  return { title: (await getT())('webhook.editTitle') };
}

/** The id was validated by the segment's layout (a malformed one is a 404 there). */
export default async function WebhookEditPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <WebhookEditor id={id.toLowerCase()} />;
}
