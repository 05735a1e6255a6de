import 'server-only';
import { env } from '@/lib/config/env';
import { webhookCreateSchemaFor, webhookUpdateSchemaFor } from './contract';
import type { UrlPolicy } from './url-policy';

/** The URL policy this server enforces: strict unless WEBHOOK_ALLOW_HTTP / WEBHOOK_ALLOW_PRIVATE_TARGETS relax it. */
export function configuredUrlPolicy(): UrlPolicy {
  const { WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE_TARGETS } = env();
  return { allowHttp: WEBHOOK_ALLOW_HTTP, allowPrivateTargets: WEBHOOK_ALLOW_PRIVATE_TARGETS };
}

let cached: ReturnType<typeof webhookUpdateSchemaFor> | undefined;

/** The PUT body schema under the configured policy, built once per process. */
export function configuredWebhookUpdateSchema() {
  cached ??= webhookUpdateSchemaFor(configuredUrlPolicy());
  return cached;
}

let cachedCreate: ReturnType<typeof webhookCreateSchemaFor> | undefined;

/** The POST body schema under the configured policy. */
export function configuredWebhookCreateSchema() {
  cachedCreate ??= webhookCreateSchemaFor(configuredUrlPolicy());
  return cachedCreate;
}
