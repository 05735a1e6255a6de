import { FieldRejected } from '@/lib/validation/field-rejected';
import { webhookIdSchema } from './contract';

/** The path's configuration id, lowercase as ids are stored; 400 naming `id` (a path parameter, so no pointer). */
export function parseWebhookId(id: string): string {
  if (!webhookIdSchema.safeParse(id).success) throw new FieldRejected('id', 'uuid', '', 'The path parameter id is not a UUID.');
  return id.toLowerCase();
}
