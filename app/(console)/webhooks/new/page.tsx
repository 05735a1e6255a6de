import { WebhookCreate } from '@/components/webhooks/webhook-create';
import { bodySettings } from '@/lib/http/body-settings';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata() {
  return { title: (await getT())('webhook.createTitle') };
}

/** The URL policy the POST applies goes with the form, so it checks a URL as the server will. */
export default function NewWebhookPage() {
  return <WebhookCreate urlPolicy={bodySettings().urlPolicy} />;
}
