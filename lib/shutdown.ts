import 'server-only';
import type http from 'node:http';
import { env } from '@/lib/config/env';
import { closeDb } from '@/lib/data';
import { stopRetention } from '@/lib/data/retention';
import { stopAlerts } from '@/lib/webhooks/alerts/service';
import { log, redactError } from '@/lib/log';
import { stopTracing } from '@/lib/observability/tracing';
import { deliveryWorker } from '@/lib/webhooks/delivery/process-worker';

/**
 * A deploy (SIGTERM, or SIGINT by hand) ends the process without losing or doubling anything
 * (issue 18): readiness answers 503 at once, so a load balancer stops sending; the HTTP servers stop
 * accepting and finish the requests they have; the delivery worker claims nothing more and waits
 * for its attempts in flight (each bounded by WEBHOOK_TIMEOUT_MS) and records them; then the
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
    const worker = await deliveryWorker().stop(env().WEBHOOK_TIMEOUT_MS + 5_000);
    stopRetention();
    stopAlerts();
    await requests;
    await closeDb();
    // The last spans (the drained attempts') leave before the process does.
    await stopTracing();
    log.info('server.stopped', { signal, unfinishedAttempts: worker.unfinished, durationMs: Date.now() - started });
    process.exit(0);
  } catch (error) {
    log.error('server.stop_failed', redactError(error));
    process.exit(1);
  }
}

/** Stops accepting connections; resolves when requests in flight are answered (or the grace ends). */
function closeServers(): Promise<void> {
  const servers = [...((globalThis as Record<symbol, Set<http.Server> | undefined>)[HTTP_SERVERS] ?? [])];
  const closed = servers.map(
    (server) =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  );
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      for (const server of servers) server.closeAllConnections();
      resolve();
    }, REQUESTS_GRACE_MS);
  });
  return Promise.race([Promise.all(closed).then(() => undefined), grace]).finally(() => clearTimeout(timer));
}
