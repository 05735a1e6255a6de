import 'server-only';
import { env } from '@/lib/config/env';
import type { BodySettings } from '@/lib/http/operation';

/**
 * This server's settings that body schemas depend on: the webhook URL policy, strict unless
 * WEBHOOK_ALLOW_HTTP / WEBHOOK_ALLOW_PRIVATE_TARGETS relax it. The API validates bodies under them
 * (lib/http/route.ts) and the console's pages hand them to their forms, so a form refuses exactly
 * what the API would.
 */
export function bodySettings(): BodySettings {
  const { WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE_TARGETS } = env();
  return { urlPolicy: { allowHttp: WEBHOOK_ALLOW_HTTP, allowPrivateTargets: WEBHOOK_ALLOW_PRIVATE_TARGETS } };
}
