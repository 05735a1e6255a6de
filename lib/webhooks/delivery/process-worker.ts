import 'server-only';
import { env } from '@/lib/config/env';
import { getDb } from '@/lib/db/handle';
import { decryptCredentials } from '../configurations/broker-credentials';
import { decryptSigningSecret } from '../configurations/secrets';
import { resolverFor } from './checked-lookup';
import { registerDestinations } from './destinations';
import * as store from './store';
import { DeliveryWorker, type WorkerStore } from './worker';
import type { AttemptContext } from './store';

/**
 * This process's delivery worker, wired from its database and settings: the one place the engine
 * meets getDb() and env(). One per process, kept across dev-mode reloads.
 */
const holder = globalThis as typeof globalThis & { __webhookDeliveryWorker?: DeliveryWorker };

export function deliveryWorker(): DeliveryWorker {
  holder.__webhookDeliveryWorker ??= createWorker();
  return holder.__webhookDeliveryWorker;
}

const POLL_MS = 1000;

function createWorker(): DeliveryWorker {
  const settings = env();
  const databaseStore: WorkerStore = {
    waiting: async (now) => store.waitingCandidates(await getDb(), now),
    claim: async (owner, claimSettings, candidates) => store.claimAmong(await getDb(), owner, claimSettings, candidates),
    contexts: async (ids) => store.loadAttemptContexts(await getDb(), ids),
    record: async (owner, records, circuit) => store.recordAttempts(await getDb(), owner, records, circuit),
    release: async (owner, ids, retryAt) => store.releaseClaims(await getDb(), owner, ids, retryAt),
    skip: async (owner, id) => store.skipDelivery(await getDb(), owner, id),
    sendSlot: async (configId, perSecond, clock) => store.takeSendSlot(await getDb(), configId, perSecond, clock),
    cancel: async (owner, id) => store.cancelDelivery(await getDb(), owner, id),
  };
  return new DeliveryWorker({
    store: databaseStore,
    destinations: registerDestinations({
      resolve: resolverFor(settings.WEBHOOK_DNS_SERVERS),
      pool: { idleMs: settings.WEBHOOK_BROKER_IDLE_SECONDS * 1000, perTenant: settings.WEBHOOK_BROKER_CONNECTIONS },
    }),
    clock: Date.now,
    signingSecrets,
    credentials: (context) => decryptCredentials(context.config.id, context.config.brokerCredentialsEnc),
    settings: {
      concurrency: settings.WEBHOOK_CONCURRENCY,
      perEndpoint: settings.WEBHOOK_ENDPOINT_CONCURRENCY,
      perTenant: settings.WEBHOOK_TENANT_CONCURRENCY,
      pollMs: POLL_MS,
      orderedHoldMs: settings.WEBHOOK_ORDERED_HOLD_MINUTES * 60_000,
      send: { timeoutMs: settings.WEBHOOK_TIMEOUT_MS, allowPrivateTargets: settings.WEBHOOK_ALLOW_PRIVATE_TARGETS },
      retry: { scheduleSeconds: settings.WEBHOOK_RETRY_SCHEDULE, disableAfterMs: settings.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000 },
      circuit: {
        threshold: settings.WEBHOOK_CIRCUIT_FAILURES,
        openMs: settings.WEBHOOK_CIRCUIT_OPEN_SECONDS * 1000,
        maxOpenMs: settings.WEBHOOK_CIRCUIT_PROBE_SECONDS * 1000,
      },
    },
  });
}

/** The current secret, plus the previous one while a rotation's overlap lasts. */
function signingSecrets(context: AttemptContext, now: number): string[] {
  const { id, secretEnc, previousSecretEnc, previousSecretUntil } = context.config;
  const secrets = [decryptSigningSecret(id, secretEnc)];
  if (previousSecretEnc && previousSecretUntil !== null && previousSecretUntil > now)
    secrets.push(decryptSigningSecret(id, previousSecretEnc));
  return secrets;
}
