import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { webhookIdSchema } from '@/lib/webhooks/contract';

/**
 * The id is checked here, like the role in ../layout.tsx: outside every loading boundary, so a
 * malformed id gets a real 404 status before anything streams. (The list's loading boundary lives
 * in the (list) group for the same reason.)
 */
export default async function WebhookLayout({ children, params }: { children: ReactNode; params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!webhookIdSchema.safeParse(id).success) notFound();
  return children;
}
