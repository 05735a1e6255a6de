import 'server-only';
import { getDb } from '@/lib/db/handle';
import { refuse } from '@/lib/errors/refusal';
import { maskSecret } from '@/lib/audit/masking';
import { isPortalSession, type Principal } from '@/lib/auth/principal';
import type { WebhookConfiguration, WebhookView } from '../contract';
import { findWebhook, listWebhooks } from '../store/configs';
import type { StoredWebhook } from '../store/rows';
import { viewOf } from './views';

/**
 * Webhook configurations as callers see them. An API client sees only configurations of its own
 * usuarioId; any other id, someone else's included, answers exactly like an unknown one (404), so
 * ids of other tenants cannot be probed. Staff with the webhooks role see every configuration.
 */
export function visibleTo(principal: Principal, stored: StoredWebhook | undefined): stored is StoredWebhook {
  if (!stored) return false;
  // Stored ids are lowercase (seed-format.ts); a platform token may spell its claim otherwise.
  return principal.kind === 'staff' || stored.config.usuarioId === principal.usuarioId.toLowerCase();
}

export function etagOf(stored: StoredWebhook): string {
  return `"${stored.config.id}.v${stored.version}"`;
}

/**
 * Whether a principal reads custom header values (issue 43). They are often the receiver's own
 * credentials: a read-only portal session sees their names only, as it is refused the signing secret.
 */
export function readsHeaderValues(principal: Principal): boolean {
  return !(isPortalSession(principal) && principal.portal.readOnly);
}

/** The configuration as `principal` may read it: header values masked where it may not read them. */
function readableBy(principal: Principal, stored: StoredWebhook): StoredWebhook {
  if (readsHeaderValues(principal)) return stored;
  return { ...stored, config: { ...stored.config, headers: maskedHeaders(stored.config.headers) } };
}

/** A configuration `principal` may see (404 otherwise), as it may read it: never to be saved back. */
export async function getWebhook(principal: Principal, id: string): Promise<StoredWebhook> {
  const stored = await findWebhook(await getDb(), id);
  if (!visibleTo(principal, stored)) throw refuse.notFound('Webhook configuration not found.');
  return readableBy(principal, stored);
}

export async function searchWebhooks(principal: Principal, search: string | undefined): Promise<WebhookView[]> {
  const usuarioId = principal.kind === 'api-client' ? principal.usuarioId : undefined;
  const found = await listWebhooks(await getDb(), { usuarioId, search, limit: 500 });
  return found.map((stored) => viewOf(readableBy(principal, stored)));
}

/** Header values often hold receivers' secrets: the trail keeps their names only. */
export function auditView(config: WebhookConfiguration) {
  return { ...config, headers: maskedHeaders(config.headers) };
}

function maskedHeaders(headers: WebhookConfiguration['headers']): WebhookConfiguration['headers'] {
  return headers.map((header) => ({ chave: header.chave, valor: maskSecret(header.valor) }));
}
