import 'server-only';
import { getDb } from '@/lib/db/handle';
import { accountLookups } from './account-lookups';
import { REVOCATION_DELAY_SECONDS } from './revocation-delay';

/**
 * Whether an embedded client may still use the tokens it holds: revoking a client must stop them
 * soon, but reading the client's row on every request would cost a query per call. So each process
 * keeps the answer for REVOCATION_DELAY_SECONDS; the revoking process forgets it at once.
 */
const CACHE_MS = REVOCATION_DELAY_SECONDS * 1000;
const cache = new Map<string, { active: boolean; until: number }>();

export async function clientIsActive(clientId: string, now = Date.now()): Promise<boolean> {
  const cached = cache.get(clientId);
  if (cached && cached.until > now) return cached.active;
  const client = await accountLookups().apiClient(await getDb(), clientId);
  const active = client !== undefined && client.revokedAt === null;
  if (cache.size > 10_000) cache.clear();
  cache.set(clientId, { active, until: now + CACHE_MS });
  return active;
}

export function forgetClientState(clientId: string): void {
  cache.delete(clientId);
}
