import { WebhookCreate } from '@/components/webhooks/webhook-create';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata() {
  return { title: (await getT())('webhook.createTitle') };
}

export default function NewWebhookPage() {
  return <WebhookCreate />;
}
