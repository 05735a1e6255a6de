import 'server-only';
import type http from 'node:http';
import { env } from '@/lib/config/env';
import { closeDb } from '@/lib/db/handle';
import { stopRetention } from '@/lib/retention';
import { stopAlerts } from '@/lib/webhooks/alerts/service';
import { log, redactError } from '@/lib/log';
import { stopTracing } from '@/lib/observability/tracing';
import { deliveryWorker } from '@/lib/webhooks/delivery/process-worker';
import { stopWaitlist } from '@/lib/waitlist/worker';

/**
 * A deploy (SIGTERM, or SIGINT by hand) ends the process without losing or doubling anything
 * (issue 18): readiness answers 503 at once, so a load balancer stops sending; the HTTP servers stop
 * accepting, close their idle kept-alive connections and answer the requests they have read, each
 * with `Connection: close` (issue 27); the delivery worker claims nothing more and waits
 * for its attempts in flight (each bounded by WEBHOOK_TIMEOUT_MS) and records them; the waitlist's
 * worker starts no offer and completes the one it is making (issue 48: never a slot held without
 * its offer, nor an entry left mid-offer); then the
 * database pool closes, the spans still queued are sent (tracing on) and the process exits 0. An attempt still unfinished after that keeps its
 * lease, and another instance sends it when the lease runs out.
 *
 * scripts/server-entry.mjs keeps Next from exiting on the signal itself and registers the servers.
 */
const HTTP_SERVERS = Symbol.for('integration-console.http-servers');
/** Requests in flight get this long to finish once the servers stop accepting. */
const REQUESTS_GRACE_MS = 10_000;

const state = globalThis as typeof globalThis & { __integrationShutdown?: { started: boolean } };

/** True from the signal on: readiness fails, so no new traffic is routed here. */
export function isShuttingDown(): boolean {
  return state.__integrationShutdown?.started ?? false;
}

export function installShutdown(): void {
  if (state.__integrationShutdown) return;
  state.__integrationShutdown = { started: false };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void shutdown(signal));
}

async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (state.__integrationShutdown!.started) return;
  state.__integrationShutdown!.started = true;
  log.info('server.stopping', { signal });
  const started = Date.now();
  try {
    const requests = closeServers();
    const [worker, waitlist] = await Promise.all([deliveryWorker().stop(env().WEBHOOK_TIMEOUT_MS + 5_000), stopWaitlist()]);
    stopRetention();
    stopAlerts();
    await requests;
    await closeDb();
    // The last spans (the drained attempts') leave before the process does.
    await stopTracing();
    log.info('server.stopped', {
      signal,
      unfinishedAttempts: worker.unfinished,
      waitlistDrained: waitlist.drained,
      durationMs: Date.now() - started,
    });
    process.exit(0);
  } catch (error) {
    log.error('server.stop_failed', redactError(error));
    process.exit(1);
  }
}

/**
 * Stops accepting connections and closes the idle ones at once; resolves when the requests in
 * flight are answered (or the grace ends). From now on every answer says `Connection: close` and
 * its connection closes once it is sent (scripts/server-entry.mjs, 7), so clients holding kept-alive
 * connections neither reach this instance again nor hold its shutdown up.
 */
async function closeServers(): Promise<void> {
  // A request that reached a kept-alive connection just before the signal is read first (the rest
  // of this turn's I/O), so it is answered as in flight rather than reset with its idle connection.
  await new Promise((resolve) => setImmediate(resolve));
  const servers = [...((globalThis as Record<symbol, Set<http.Server> | undefined>)[HTTP_SERVERS] ?? [])];
  // close() also closes the idle connections (Node's http.Server#close).
  const closed = servers.map((server) => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())));
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      for (const server of servers) server.closeAllConnections();
      resolve();
    }, REQUESTS_GRACE_MS);
  });
  return Promise.race([Promise.all(closed).then(() => undefined), grace]).finally(() => clearTimeout(timer));
}
