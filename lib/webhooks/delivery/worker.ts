import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { env } from '@/lib/config/env';
import { getDb } from '@/lib/data';
import { log, outsideRequest, redactError } from '@/lib/log';
import { decryptSecret } from '../secrets';
import { resolverFor } from './checked-lookup';
import { messageBody } from './message';
import { decide } from './retry-policy';
import { send } from './send';
import { claimDue, loadAttemptContext, recordAttempts, skipDelivery, type AttemptContext, type AttemptRecord } from './store';

/**
 * The delivery worker inside each server process: it claims due deliveries (at most
 * WEBHOOK_CONCURRENCY in flight), makes one attempt each and records the outcome. It is woken at
 * once when this process accepts an event, and polls for the rest (retries coming due, events
 * accepted by other instances, leases left by dead ones). Payloads never reach the log.
 */
const POLL_MS = 1000;

/**
 * How long a claim holds: twice the attempt's timeout plus 5 s, so a live instance always records
 * its outcome first, and a dead instance's deliveries are taken over soon after (35 s by default).
 */
export function leaseMs(timeoutMs: number): number {
  return 2 * timeoutMs + 5000;
}

/**
 * Outcomes of attempts that end close together are committed in one transaction (group commit): on
 * SQLite with synchronous=FULL each commit is an fsync, and at hundreds of deliveries a second one
 * per outcome would cap throughput. Each attempt still waits for its own outcome's commit.
 */
class OutcomeWriter {
  private queue: { record: AttemptRecord; resolve: (written: boolean) => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;

  constructor(private readonly owner: string) {}

  write(db: Knex, record: AttemptRecord): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ record, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => void this.flush(db));
    });
  }

  private async flush(db: Knex): Promise<void> {
    this.scheduled = false;
    const batch = this.queue.splice(0);
    try {
      const written = await recordAttempts(
        db,
        this.owner,
        batch.map((entry) => entry.record),
      );
      batch.forEach((entry, index) => entry.resolve(written[index] ?? false));
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
}

class DeliveryWorker {
  readonly owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly outcomes = new OutcomeWriter(this.owner);
  private inFlight = 0;
  private pumping = false;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    this.wake();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Claim and send whatever is due now (coalesced: a pump already running goes round once more). */
  wake(): void {
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    // Woken inside the request that accepted an event; its attempts are not part of that request.
    void outsideRequest(() => this.pump())
      .catch((error: unknown) => log.error('webhook.worker_error', redactError(error)))
      .finally(() => {
        this.pumping = false;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async pump(): Promise<void> {
    const { WEBHOOK_CONCURRENCY, WEBHOOK_TIMEOUT_MS } = env();
    const db = await getDb();
    for (;;) {
      const free = WEBHOOK_CONCURRENCY - this.inFlight;
      if (free <= 0) return;
      const ids = await claimDue(db, this.owner, free, Date.now(), leaseMs(WEBHOOK_TIMEOUT_MS));
      if (ids.length === 0) return;
      for (const id of ids) {
        this.inFlight++;
        void this.attempt(db, id)
          .catch((error: unknown) => log.error('webhook.attempt_error', { deliveryId: id, ...redactError(error) }))
          .finally(() => {
            this.inFlight--;
            this.wake();
          });
      }
    }
  }

  private async attempt(db: Knex, deliveryId: string): Promise<void> {
    const context = await loadAttemptContext(db, deliveryId);
    if (!context) return;
    // Disabled after the event was accepted: kept as skipped, for a recovery. Test events still go.
    if (!context.config.enabled && context.event.tipo !== 'webhook.teste') return skipDelivery(db, this.owner, deliveryId);
    const settings = env();
    const result = await send(
      {
        deliveryId,
        url: context.config.url,
        body: messageBody(context.event),
        secrets: signingSecrets(context, Date.now()),
        customHeaders: context.config.headers,
        now: Date.now(),
      },
      {
        timeoutMs: settings.WEBHOOK_TIMEOUT_MS,
        allowPrivateTargets: settings.WEBHOOK_ALLOW_PRIVATE_TARGETS,
        resolve: resolver(),
      },
    );
    const attemptNo = context.delivery.attempts + 1;
    const decision = decide(result, attemptNo, context.config.failingSince, Date.now(), {
      scheduleSeconds: settings.WEBHOOK_RETRY_SCHEDULE,
      disableAfterMs: settings.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000,
    });
    const recorded = await this.outcomes.write(db, { context, outcome: result, decision });
    // Ids, codes and timings only: the body and headers may carry personal data or secrets.
    log.info('webhook.attempt', {
      deliveryId,
      configId: context.config.id,
      attempt: attemptNo,
      status: result.status,
      error: result.error,
      durationMs: result.durationMs,
      outcome: recorded ? decision.status : 'lease-lost',
    });
    if (decision.disable && recorded) log.warn('webhook.config_disabled', { configId: context.config.id, reason: decision.disable });
  }
}

/** The current secret, plus the previous one while a rotation's overlap lasts. */
function signingSecrets(context: AttemptContext, now: number): string[] {
  const secrets = [decryptSecret(context.config.secretEnc)];
  const { previousSecretEnc, previousSecretUntil } = context.config;
  if (previousSecretEnc && previousSecretUntil !== null && previousSecretUntil > now) secrets.push(decryptSecret(previousSecretEnc));
  return secrets;
}

let cachedResolver: ReturnType<typeof resolverFor> | undefined;
function resolver() {
  cachedResolver ??= resolverFor(env().WEBHOOK_DNS_SERVERS);
  return cachedResolver;
}

// One per process, kept across dev-mode reloads.
const holder = globalThis as typeof globalThis & { __webhookDeliveryWorker?: DeliveryWorker };

export function deliveryWorker(): DeliveryWorker {
  holder.__webhookDeliveryWorker ??= new DeliveryWorker();
  return holder.__webhookDeliveryWorker;
}
