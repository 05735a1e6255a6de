import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { env } from '@/lib/config/env';
import { getDb } from '@/lib/db/handle';
import { poolUsage } from '@/lib/db/knex-internals';
import { refuse } from '@/lib/errors/refusal';
import { backlog, countConfigurationStates } from '@/lib/webhooks/delivery/store';
import { metrics } from '@/lib/observability/metrics';

/**
 * GET /metrics: the Prometheus text format, for a scraper holding METRICS_TOKEN.
 *
 * Without METRICS_TOKEN the endpoint is off and answers 404: the figures say how busy each
 * operation is and which receivers fail, which is not for anyone who can reach the port, and a
 * deployment that forgot the token should expose nothing rather than everything. A wrong or
 * missing token is a 401 problem with a Bearer challenge (never the console's sign-in redirect).
 * Both are refusals, answered by the API's wrapper like any other.
 */
export async function scrape(request: Request): Promise<Response> {
  const token = env().METRICS_TOKEN;
  if (!token) throw refuse.notFound('Metrics are off: set METRICS_TOKEN to serve them (docs/production.md).');
  if (!bearerMatches(request.headers.get('authorization'), token)) throw refuse.invalidToken();
  const registry = await refreshedRegistry();
  return new Response(await registry.metrics(), {
    status: 200,
    headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' },
  });
}

function bearerMatches(authorization: string | null, token: string): boolean {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The gauges read from the database at scrape time: the backlog and the configurations' states are
 * every instance's, so whichever instance is scraped reports the shared figure.
 */
async function refreshedRegistry() {
  const m = metrics();
  const db = await getDb();
  const now = Date.now();
  const [due, states] = await Promise.all([backlog(db, now), countConfigurationStates(db, now)]);
  m.backlog.set(due.due);
  m.backlogAge.set(due.oldestDueAt === null ? 0 : Math.max(0, (now - due.oldestDueAt) / 1000));
  m.configurations.set({ state: 'active' }, states.active);
  m.configurations.set({ state: 'circuit_open' }, states.circuitOpen);
  m.configurations.set({ state: 'disabled' }, states.disabled);
  const pool = poolUsage(db);
  if (pool) {
    m.dbPool.set({ state: 'used' }, pool.used);
    m.dbPool.set({ state: 'free' }, pool.free);
    m.dbPool.set({ state: 'pending' }, pool.pending);
  }
  return m.registry;
}
