import { parseUuidParam } from '@/lib/validation/path-params';

/** The path's configuration id, lowercase as ids are stored; 400 naming `id`. */
export function parseWebhookId(id: string): string {
  return parseUuidParam('id', id);
}
