import 'server-only';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { NEXT_ONLY_API_PREFIXES, servedByApiServer } from '@/lib/config/served-paths.mjs';
import { env } from '@/lib/config/env';

/**
 * The process's Prometheus metrics (issue 20), served at GET /metrics (lib/health/scrape.ts).
 *
 * Labels are low-cardinality by rule: an operation id, a method, a status, an outcome. Never a
 * tenant, configuration, user, client or patient identifier — those belong in the delivery log and
 * the audit trail, which are access-controlled; a metric is read by anyone with the scrape token.
 *
 * One set per process, on globalThis: `npm start` loads the app twice (Next's server bundle and the
 * lean API path's bundle, scripts/serve.mjs), and both must count into the same registry.
 */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Webhook attempts run up to WEBHOOK_TIMEOUT_MS (15 s by default, at most 120 s). */
const ATTEMPT_SECONDS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30, 60, 120];
/** Publish to receipt includes retries: from milliseconds to the retry schedule's hours. */
const DELIVERY_LATENCY_SECONDS = [0.01, 0.05, 0.1, 0.5, 1, 5, 30, 60, 300, 1800, 7200, 36_000, 86_400];

function create() {
  const registry = new Registry();
  // CPU, memory, handles, GC and event-loop lag (nodejs_eventloop_lag_*): prom-client's own set.
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_server_request_duration_seconds',
      help: 'Time to answer an HTTP request, by API operation id (or console.page, console.asset, console.auth) and status.',
      labelNames: ['operation', 'method', 'status'] as const,
      buckets: SECONDS,
      registers,
    }),
    reservations: new Counter({
      name: 'scheduling_reservations_total',
      help: 'Reserve (R) and release (CR) calls by the CODIGO_P answered; codigo_p="error" when the back-end failed without one.',
      labelNames: ['ie_opcao', 'codigo_p'] as const,
      registers,
    }),
    backendDuration: new Histogram({
      name: 'scheduling_backend_call_duration_seconds',
      help: 'Time the scheduling back-end (the embedded scheduler or the Oracle procedure) took to answer a reserve or release.',
      labelNames: ['backend', 'outcome'] as const,
      buckets: SECONDS,
      registers,
    }),
    attempts: new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome: delivered, http_4xx, http_5xx, http_other, timeout, connection_refused, dns, blocked, redirect, network.',
      labelNames: ['outcome'] as const,
      registers,
    }),
    attemptDuration: new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Time one webhook attempt took, connection to answer, by outcome.',
      labelNames: ['outcome'] as const,
      buckets: ATTEMPT_SECONDS,
      registers,
    }),
    deliveryLatency: new Histogram({
      name: 'webhook_delivery_latency_seconds',
      help: 'From an event being published to its receiver answering 2xx, retries included.',
      buckets: DELIVERY_LATENCY_SECONDS,
      registers,
    }),
    backlog: new Gauge({
      name: 'webhook_backlog_deliveries',
      help: 'Pending deliveries whose attempt is due now, in every instance (read from the database at scrape time).',
      registers,
    }),
    backlogAge: new Gauge({
      name: 'webhook_backlog_oldest_age_seconds',
      help: 'How long the oldest due delivery has waited past its due time; 0 with no backlog (read from the database).',
      registers,
    }),
    configurations: new Gauge({
      name: 'webhook_configurations',
      help: 'Webhook configurations by delivery state: active, circuit_open, disabled (read from the database).',
      labelNames: ['state'] as const,
      registers,
    }),
    authRefusals: new Counter({
      name: 'auth_refusals_total',
      help: 'Refused credentials: reason="invalid_client" at the token endpoint, "invalid_token" for a Bearer token the API refused.',
      labelNames: ['reason'] as const,
      registers,
    }),
    throttled: new Counter({
      name: 'auth_throttled_total',
      help: 'Attempts refused with 429 after too many failures: endpoint="token", "sign_in" or "password_change".',
      labelNames: ['endpoint'] as const,
      registers,
    }),
    dbPool: new Gauge({
      name: 'db_pool_connections',
      help: 'The app database pool: connections in use, idle, and acquisitions waiting for one.',
      labelNames: ['state'] as const,
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof create>;

/** Every instrument's key in Metrics, so the no-op set below has them all. */
const INSTRUMENT_NAMES: Record<Exclude<keyof Metrics, 'registry'>, true> = {
  httpDuration: true,
  reservations: true,
  backendDuration: true,
  attempts: true,
  attemptDuration: true,
  deliveryLatency: true,
  backlog: true,
  backlogAge: true,
  configurations: true,
  authRefusals: true,
  throttled: true,
  dbPool: true,
};

const METRICS = Symbol.for('integration-console.metrics');
/** Called by scripts/server-entry.mjs for every request it sees: the console's are timed here. */
const OBSERVE_REQUEST = Symbol.for('integration-console.observe-request');

type Holder = typeof globalThis & {
  [METRICS]?: Metrics;
  [OBSERVE_REQUEST]?: (pathname: string, method: string, status: number, seconds: number) => void;
};

/**
 * The process's metrics. Without METRICS_TOKEN nobody may read them (/metrics answers 404), so
 * nothing is recorded either: every instrument is a no-op and requests pay nothing for them.
 */
export function metrics(): Metrics {
  const holder = globalThis as Holder;
  if (!holder[METRICS]) {
    if (!env().METRICS_TOKEN) {
      holder[METRICS] = unrecorded();
      return holder[METRICS];
    }
    const created = create();
    holder[METRICS] = created;
    holder[OBSERVE_REQUEST] = (pathname, method, status, seconds) => {
      const operation = consoleOperation(pathname);
      if (operation) created.httpDuration.observe({ operation, method, status: String(status) }, seconds);
    };
  }
  return holder[METRICS];
}

/** Instruments that record nothing, for a server without METRICS_TOKEN. */
function unrecorded(): Metrics {
  const nothing = { inc: () => undefined, observe: () => undefined, set: () => undefined };
  const instruments = Object.fromEntries(
    (Object.keys(INSTRUMENT_NAMES) as (keyof typeof INSTRUMENT_NAMES)[]).map((name) => [name, nothing]),
  );
  // Only inc, observe and set are ever called on an instrument outside this module.
  return { registry: new Registry(), ...instruments } as unknown as Metrics;
}

const ASSET_PREFIXES = ['/_next/', '/vendor/', '/favicon.ico', '/icon.svg'];

/**
 * The label of a request the console (Next) answered: pages, their assets and sign-in, in three
 * values whatever the path. Undefined for the API's paths, which its router times under each
 * operation's id (lib/api/dispatch.ts).
 */
function consoleOperation(pathname: string): string | undefined {
  if (servedByApiServer(pathname)) return undefined;
  if (NEXT_ONLY_API_PREFIXES.some((prefix) => pathname.startsWith(prefix))) return 'console.auth';
  if (ASSET_PREFIXES.some((prefix) => pathname.startsWith(prefix))) return 'console.asset';
  return 'console.page';
}
