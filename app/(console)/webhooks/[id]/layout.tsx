import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { webhookIdSchema } from '@/lib/webhooks/configurations/contract';

/**
 * The id is checked here, like the role in ../layout.tsx, before the page renders anything, so a
 * malformed id gets a real 404 status.
 */
export default async function WebhookLayout({ children, params }: { children: ReactNode; params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!webhookIdSchema.safeParse(id).success) notFound();
  return children;
}
