import 'server-only';
import { env } from '@/lib/config/env';
import { getDb } from '@/lib/db/handle';
import { signingSecret } from '@/lib/auth/signing-secret';
import { registerCallerLookups } from '@/lib/api/callers';
import { startRetention } from '@/lib/retention';
import { installShutdown } from '@/lib/shutdown';
import { adviseFirstAdmin } from '@/lib/staff/first-admin';
import { warnOfDemoCredentials } from '@/lib/seed/demo-credentials';
import { prepareDatabase } from '@/lib/seed/prepare';
import { metrics } from '@/lib/observability/metrics';
import { startTracing } from '@/lib/observability/tracing';
import { deliveryWorker } from '@/lib/webhooks/delivery/process-worker';
import { startAlerts } from '@/lib/webhooks/alerts/service';
import { ensureOperatorWebhook } from '@/lib/webhooks/operational/operator-config';
import { startWaitlist } from '@/lib/waitlist/worker';
import { wireWebhooks } from '@/lib/webhooks/wiring';

/**
 * Validates the configuration and opens (creates, migrates, seeds) the database at start, so a bad
 * setting stops the server with a clear message instead of failing requests one by one.
 *
 * Once per process, whoever asks first: Next's instrumentation and the lean API path (bundled
 * apart, in the same process under `npm start`) share the one start through globalThis, and the
 * lean path answers no request before it has finished, as Next answers none before its
 * instrumentation has.
 */
const holder = globalThis as typeof globalThis & { __integrationConsoleStartup?: Promise<void> };

export function startServer(): Promise<void> {
  holder.__integrationConsoleStartup ??= start();
  return holder.__integrationConsoleStartup;
}

async function start(): Promise<void> {
  try {
    env();
    // What the delivery engine and alerts do when a configuration changes (lib/webhooks/wiring.ts).
    wireWebhooks();
    // Before the database opens: opening it is when its statements get their spans (lib/db/handle.ts).
    await startTracing();
    // Generated now (when AUTH_SECRET is unset), not by the first request that signs something.
    signingSecret();
    // Before any page checks a console session (lib/auth/console-session.ts) without the API's router.
    registerCallerLookups();
    // Nothing seeds accounts unless asked to: an empty database's log says how to make the first
    // admin, and one the demo seeded earlier says which public credentials still open it.
    const db = await getDb();
    await prepareDatabase(db);
    await adviseFirstAdmin(db);
    await warnOfDemoCredentials(db);
    // The operator's receiver of operational events, from OPERATIONAL_WEBHOOK_URL (issue 31 §3).
    await ensureOperatorWebhook(db);
    // Counting from the first request on, the console's included (scripts/server-entry.mjs).
    metrics();
  } catch (error) {
    console.error(`Integration Console cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  // Each server process sends the deliveries it claims (lib/webhooks/delivery/worker.ts), prunes
  // old delivery history (lib/retention.ts) and drains both on a deploy's SIGTERM (lib/shutdown.ts).
  deliveryWorker().start();
  startRetention();
  // Tells staff when a receiver is switched off or down too long (issue 20 §4).
  startAlerts();
  // Offers freed slots to the waitlist's entries (issue 48), every WAITLIST_SCAN_SECONDS and on a release.
  startWaitlist();
  installShutdown();
}
