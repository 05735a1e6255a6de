import { notFound } from 'next/navigation';
import { WebhookEditor } from '@/components/webhooks/webhook-editor';
import { getT } from '@/lib/i18n/server';
import { webhookIdSchema } from '@/lib/webhooks/contract';

export async function generateMetadata() {
  return { title: (await getT())('webhook.editTitle') };
}

export default async function WebhookEditPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!webhookIdSchema.safeParse(id).success) notFound();
  return <WebhookEditor id={id.toLowerCase()} />;
}
