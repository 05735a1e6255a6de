import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Span } from '@opentelemetry/api';
import { env } from '@/lib/config/env';
import { getDb } from '@/lib/data';
import { log, outsideRequest, redactError } from '@/lib/log';
import { inSpan, outsideSpans } from '@/lib/observability/tracing';
import { decryptSecret } from '../secrets';
import { resolverFor } from './checked-lookup';
import { messageBody } from './message';
import { decide } from './retry-policy';
import { classify, send, type SendResult } from './send';
import { recordAttemptMetrics } from './attempt-metrics';
import { attemptSpanOptions, recordAttemptSpan } from './attempt-span';
import { MAX_OPEN_MS, type CircuitSettings } from './circuit';
import {
  claimAmong,
  loadAttemptContexts,
  recordAttempts,
  releaseClaims,
  skipDelivery,
  type AttemptContext,
  type AttemptRecord,
  type Recorded,
  waitingCandidates,
} from './store';
import type { Candidate } from './fair-share';

/**
 * The delivery worker inside each server process: it claims due deliveries (at most
 * WEBHOOK_CONCURRENCY in flight, shared fairly across tenants and then configurations, at most
 * WEBHOOK_TENANT_CONCURRENCY for one tenant and WEBHOOK_ENDPOINT_CONCURRENCY to one configuration:
 * store.ts, claimAmong; fair-share.ts), makes one attempt each and
 * records the outcome and the configuration's circuit (circuit.ts). It is woken at once when this
 * process accepts an event, and polls for the rest (retries coming due, events accepted by other
 * instances, leases left by dead ones, circuits whose open period ended). On a deploy it drains:
 * no new claims, attempts in flight finish and are recorded. Payloads never reach the log.
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
  private queue: { record: AttemptRecord; resolve: (recorded: Recorded) => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;

  constructor(private readonly owner: string) {}

  write(db: Knex, record: AttemptRecord): Promise<Recorded> {
    return new Promise((resolve, reject) => {
      this.queue.push({ record, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // The batch records several attempts: its statements belong to no one attempt's span.
      setImmediate(() => void outsideSpans(() => this.flush(db)));
    });
  }

  private async flush(db: Knex): Promise<void> {
    this.scheduled = false;
    const batch = this.queue.splice(0);
    try {
      const recorded = await recordAttempts(
        db,
        this.owner,
        batch.map((entry) => entry.record),
        circuitSettings(),
      );
      batch.forEach((entry, index) => entry.resolve(recorded[index] ?? { written: false }));
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
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  private drained: (() => void) | undefined;
  /**
   * The configurations with due deliveries, from the last look (store.ts, waitingCandidates), kept
   * for up to POLL_MS: that look probes every configuration, a claim among them only a few.
   * Configurations this process just published to join at once.
   */
  private candidates: Candidate[] = [];
  private lookedAt = 0;

  start(): void {
    if (this.timer || this.stopping) return;
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    this.wake();
  }

  /**
   * A deploy (SIGTERM): claims nothing more, lets the attempts in flight finish and records their
   * outcomes (each is bounded by WEBHOOK_TIMEOUT_MS), gives back what it claimed but had not
   * started, and resolves once nothing is in flight or `deadlineMs` has passed. Whatever is still in
   * flight then keeps its lease, which another instance takes over when it runs out.
   */
  async stop(deadlineMs: number): Promise<{ unfinished: number }> {
    this.stopping = true;
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.inFlight > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => (this.drained = resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, deadlineMs))),
      ]);
      clearTimeout(timer);
    }
    return { unfinished: this.inFlight };
  }

  /**
   * Claim and send whatever is due now (coalesced: a pump already running goes round once more);
   * `waiting`: configurations that just got deliveries.
   */
  wake(waiting: readonly Candidate[] = []): void {
    if (this.stopping) return;
    for (const candidate of waiting) {
      if (!this.candidates.some((known) => known.configId === candidate.configId)) this.candidates.push(candidate);
    }
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    // Woken inside the request that accepted an event; its attempts are not part of that request,
    // nor of its trace: each attempt is a trace of its own.
    void outsideRequest(() => outsideSpans(() => this.pump()))
      .catch((error: unknown) => log.error('webhook.worker_error', redactError(error)))
      .finally(() => {
        this.pumping = false;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /**
   * A claim costs a few statements whatever it takes, so an attempt that ends claims again only
   * once a quarter of the slots are free (or none is busy); new events and the poll claim any free
   * slot, so a slot is never left idle for longer than POLL_MS.
   */
  private wakeAfterAttempt(concurrency: number): void {
    if (this.inFlight === 0 || concurrency - this.inFlight >= Math.max(1, Math.floor(concurrency / 4))) this.wake();
  }

  private async pump(): Promise<void> {
    const { WEBHOOK_CONCURRENCY, WEBHOOK_TIMEOUT_MS, WEBHOOK_ENDPOINT_CONCURRENCY, WEBHOOK_TENANT_CONCURRENCY } = env();
    const db = await getDb();
    while (!this.stopping) {
      const free = WEBHOOK_CONCURRENCY - this.inFlight;
      if (free <= 0) return;
      const now = Date.now();
      if (this.candidates.length === 0 || now - this.lookedAt >= POLL_MS) {
        this.candidates = await waitingCandidates(db, now);
        this.lookedAt = now;
      }
      const claim = await claimAmong(
        db,
        this.owner,
        {
          limit: free,
          now,
          leaseMs: leaseMs(WEBHOOK_TIMEOUT_MS),
          perEndpoint: WEBHOOK_ENDPOINT_CONCURRENCY,
          perTenant: WEBHOOK_TENANT_CONCURRENCY,
        },
        this.candidates,
      );
      if (claim.exhausted.length > 0) {
        const exhausted = new Set(claim.exhausted);
        this.candidates = this.candidates.filter((candidate) => !exhausted.has(candidate.configId));
      }
      if (claim.ids.length === 0) return;
      const contexts = await this.contextsOf(db, claim.ids);
      for (const context of contexts) {
        this.inFlight++;
        void this.attempt(db, context)
          .catch((error: unknown) => log.error('webhook.attempt_error', { deliveryId: context.delivery.id, ...redactError(error) }))
          .finally(() => {
            this.inFlight--;
            if (this.inFlight === 0) this.drained?.();
            this.wakeAfterAttempt(WEBHOOK_CONCURRENCY);
          });
      }
    }
  }

  /**
   * The claimed deliveries' contexts. Should reading them fail, the claims are given back due a
   * retry step later (the database's own outage aside, when the leases simply run out).
   */
  private async contextsOf(db: Knex, ids: readonly string[]): Promise<AttemptContext[]> {
    try {
      return await loadAttemptContexts(db, ids);
    } catch (error) {
      log.error('webhook.claim_unreadable', { deliveries: ids.length, ...redactError(error) });
      const firstStep = env().WEBHOOK_RETRY_SCHEDULE[0] ?? 5;
      await releaseClaims(db, this.owner, ids, Date.now() + firstStep * 1000).catch(() => undefined);
      return [];
    }
  }

  private async attempt(db: Knex, context: AttemptContext): Promise<void> {
    const deliveryId = context.delivery.id;
    // Claimed just before a deploy began: given back unsent, for any instance to take at once.
    if (this.stopping) return releaseClaims(db, this.owner, [deliveryId]);
    // Disabled after the event was accepted: kept as skipped, for a recovery. Test events still go.
    if (!context.config.enabled && context.event.tipo !== 'webhook.teste') return skipDelivery(db, this.owner, deliveryId);
    const attemptNo = context.delivery.attempts + 1;
    await inSpan('webhook.attempt', attemptSpanOptions(context, attemptNo), (span) => this.sendAndRecord(db, context, attemptNo, span));
  }

  /** Sends one attempt and records its outcome and the configuration's circuit. */
  private async sendAndRecord(db: Knex, context: AttemptContext, attemptNo: number, span: Span): Promise<void> {
    const deliveryId = context.delivery.id;
    const settings = env();
    const result = await sendGuarded(context, settings);
    recordAttemptMetrics(result, context.event.createdAt);
    const decision = decide(result, attemptNo, context.config.failingSince, Date.now(), {
      scheduleSeconds: settings.WEBHOOK_RETRY_SCHEDULE,
      disableAfterMs: settings.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000,
    });
    const recorded = await this.record(db, { context, outcome: result, decision });
    recordAttemptSpan(span, result, decision, recorded.written);
    // Ids, codes and timings only: the body and headers may carry personal data or secrets.
    log.info('webhook.attempt', {
      deliveryId,
      configId: context.config.id,
      attempt: attemptNo,
      status: result.status,
      error: result.error,
      durationMs: result.durationMs,
      outcome: recorded.written ? decision.status : 'lease-lost',
    });
    if (recorded.circuit?.change === 'opened') {
      const { failures, openUntil } = recorded.circuit.state;
      log.warn('webhook.circuit_opened', { configId: context.config.id, failures, until: new Date(openUntil!).toISOString() });
    }
    if (recorded.circuit?.change === 'closed') log.info('webhook.circuit_closed', { configId: context.config.id });
    if (decision.disable && recorded.written)
      log.warn('webhook.config_disabled', { configId: context.config.id, reason: decision.disable });
  }

  /**
   * Records the outcome. Should that write fail for the record itself (not the database), the
   * attempt is recorded again without what the receiver answered and what was sent, so its retry
   * schedule still holds; only when that fails too (the database is away) does the lease stay, to
   * run out.
   */
  private async record(db: Knex, record: AttemptRecord): Promise<Recorded> {
    try {
      return await this.outcomes.write(db, record);
    } catch (error) {
      log.error('webhook.outcome_not_recorded', { deliveryId: record.context.delivery.id, ...redactError(error) });
      const bare = { ...record.outcome, body: null, requestHeaders: {}, error: record.outcome.error ?? 'erro-interno' };
      return this.outcomes.write(db, { ...record, outcome: bare });
    }
  }
}

/**
 * Builds, signs and sends one attempt. Whatever is thrown on the way (an unreadable secret, a
 * header Node refuses, a bug) becomes this attempt's failure, classified, so it is recorded,
 * retried by the schedule and counted by the circuit like any other: an exception never leaves a
 * delivery leased and unrecorded.
 */
async function sendGuarded(context: AttemptContext, settings: ReturnType<typeof env>): Promise<SendResult> {
  const startedAt = Date.now();
  try {
    return await send(
      {
        deliveryId: context.delivery.id,
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
  } catch (error) {
    const reason = classify(error);
    log.error('webhook.attempt_not_sent', { deliveryId: context.delivery.id, error: reason, ...redactError(error) });
    return { startedAt, durationMs: Date.now() - startedAt, status: null, body: null, error: reason, requestHeaders: {} };
  }
}

function circuitSettings(): CircuitSettings {
  const { WEBHOOK_CIRCUIT_FAILURES, WEBHOOK_CIRCUIT_OPEN_SECONDS } = env();
  return { threshold: WEBHOOK_CIRCUIT_FAILURES, openMs: WEBHOOK_CIRCUIT_OPEN_SECONDS * 1000, maxOpenMs: MAX_OPEN_MS };
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
