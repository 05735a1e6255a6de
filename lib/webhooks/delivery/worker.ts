import { randomUUID } from 'node:crypto';
import { log, outsideRequest, redactError } from '@/lib/log';
import { outsideSpans } from '@/lib/observability/tracing';
import { attempt, type AttemptDeps } from './attempt';
import { OutcomeWriter } from './outcome-writer';
import type { CircuitSettings } from './circuit';
import type { Destinations, SendSettings } from './destinations';
import type { Candidate } from './fair-share';
import type { RetrySettings } from './retry-policy';
import type { AttemptContext, AttemptRecord, Claim, ClaimSettings, Recorded } from './store';

/**
 * The delivery worker inside each server process: it claims due deliveries (at most
 * `concurrency` in flight, shared fairly across tenants and then configurations, at most
 * `perTenant` for one tenant and `perEndpoint` to one configuration: the store's claim,
 * fair-share.ts), makes one attempt each (attempt.ts) and records the outcomes. It is woken at once
 * when this process accepts an event, and polls for the rest (retries coming due, events accepted by
 * other instances, leases left by dead ones, circuits whose open period ended). On a deploy it
 * drains: no new claims, attempts in flight finish and are recorded.
 *
 * Everything it works with is handed in (issue 28): the store, the destinations, the settings and
 * the clock. process-worker.ts wires the process's own from the database and the environment.
 */
export type WorkerSettings = {
  concurrency: number;
  perEndpoint: number;
  perTenant: number;
  /** How often it looks for due work it was not woken for. */
  pollMs: number;
  /** With ordered delivery, how long a failing head may hold the rest (WEBHOOK_ORDERED_HOLD_MINUTES; none: its whole schedule). */
  orderedHoldMs?: number;
  send: SendSettings;
  retry: RetrySettings;
  circuit: CircuitSettings;
};

/** What the worker needs of the delivery store (store/), so a test can hand it another. */
export interface WorkerStore {
  waiting(now: number): Promise<Candidate[]>;
  claim(owner: string, settings: ClaimSettings, candidates: readonly Candidate[]): Promise<Claim>;
  contexts(deliveryIds: readonly string[]): Promise<AttemptContext[]>;
  record(owner: string, records: readonly AttemptRecord[], circuit: CircuitSettings): Promise<Recorded[]>;
  /** Gives claims back: due at once, or from `retryAt`. */
  release(owner: string, deliveryIds: readonly string[], retryAt?: number): Promise<void>;
  /** A delivery claimed for a configuration disabled since: skipped, for a later recovery. */
  skip(owner: string, deliveryId: string): Promise<void>;
  /** Takes a rate-limited configuration's send slot if it is due (pacing.ts): 0 when taken, else the ms to wait before asking again. */
  sendSlot(configId: string, perSecond: number, clock: () => number): Promise<number>;
  /** A delivery its transformation cancelled: `filtrada` (payload-control/). */
  cancel?(owner: string, deliveryId: string): Promise<void>;
}

export type WorkerDeps = {
  store: WorkerStore;
  destinations: Destinations;
  settings: WorkerSettings;
  clock: () => number;
  signingSecrets: AttemptDeps['signingSecrets'];
  credentials?: AttemptDeps['credentials'];
};

/**
 * How long a claim holds: twice the attempt's timeout plus 5 s, so a live instance always records
 * its outcome first, and a dead instance's deliveries are taken over soon after (35 s by default).
 */
export function leaseMs(timeoutMs: number): number {
  return 2 * timeoutMs + 5000;
}

export class DeliveryWorker {
  readonly owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly outcomes: OutcomeWriter;
  private readonly attemptDeps: AttemptDeps;
  private inFlight = 0;
  private pumping = false;
  private again = false;
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  /** A wake at the moment a configuration held back by its rate limit or a pause may go again. */
  private heldBack: { at: number; timer: NodeJS.Timeout; candidates: Map<string, Candidate> } | undefined;
  private drained: (() => void) | undefined;
  /**
   * The configurations with due deliveries, from the last look (the store's `waiting`), kept for up
   * to pollMs: that look probes every configuration, a claim among them only a few. Configurations
   * this process just published to join at once.
   */
  private candidates: Candidate[] = [];
  private lookedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: WorkerDeps) {
    const { store, settings, destinations, clock, signingSecrets, credentials } = deps;
    this.outcomes = new OutcomeWriter(this.owner, store, settings.circuit, (waiting) => this.wake(waiting));
    this.attemptDeps = {
      destinations,
      send: settings.send,
      retry: settings.retry,
      clock,
      signingSecrets,
      credentials,
      record: (record) => this.outcomes.write(record),
      cancel: async (context) => store.cancel?.(this.owner, context.delivery.id),
    };
  }

  start(): void {
    if (this.timer || this.stopping) return;
    this.timer = setInterval(() => this.wake(), this.deps.settings.pollMs);
    this.timer.unref();
    this.wake();
  }

  /**
   * A deploy (SIGTERM): claims nothing more, lets the attempts in flight finish and records their
   * outcomes (each is bounded by the attempt timeout), gives back what it claimed but had not
   * started, and resolves once nothing is in flight or `deadlineMs` has passed, closing the
   * destinations' pooled connections. Whatever is still in flight then keeps its lease, which
   * another instance takes over when it runs out.
   */
  async stop(deadlineMs: number): Promise<{ unfinished: number }> {
    this.stopping = true;
    clearInterval(this.timer);
    this.timer = undefined;
    clearTimeout(this.heldBack?.timer);
    if (this.inFlight > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => (this.drained = resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, deadlineMs))),
      ]);
      clearTimeout(timer);
    }
    // Pooled connections go with the last attempt; one still in flight keeps its own until exit.
    if (this.inFlight === 0) await this.deps.destinations.close();
    return { unfinished: this.inFlight };
  }

  /** Attempts this process has in flight now. */
  get busy(): number {
    return this.inFlight;
  }

  /**
   * Claim and send whatever is due now (coalesced: a pump already running goes round once more);
   * `waiting`: configurations that just got deliveries.
   */
  wake(waiting: readonly Candidate[] = []): void {
    if (this.stopping) return;
    // Most wakes (an attempt ended, the poll) bring no candidates: no set to build for them.
    const known = waiting.length > 0 ? new Set(this.candidates.map((candidate) => candidate.configId)) : new Set<string>();
    for (const candidate of waiting) {
      if (known.has(candidate.configId)) continue;
      known.add(candidate.configId);
      this.candidates.push(candidate);
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
   * slot, so a slot is never left idle for longer than pollMs.
   */
  private wakeAfterAttempt(): void {
    const { concurrency } = this.deps.settings;
    if (this.inFlight === 0 || concurrency - this.inFlight >= Math.max(1, Math.floor(concurrency / 4))) this.wake();
  }

  private async pump(): Promise<void> {
    const { store, settings, clock } = this.deps;
    while (!this.stopping) {
      const free = settings.concurrency - this.inFlight;
      if (free <= 0) return;
      const now = clock();
      if (this.candidates.length === 0 || now - this.lookedAt >= settings.pollMs) {
        this.candidates = await store.waiting(now);
        this.lookedAt = now;
      }
      const claim = await store.claim(
        this.owner,
        {
          limit: free,
          now,
          leaseMs: leaseMs(settings.send.timeoutMs),
          perEndpoint: settings.perEndpoint,
          perTenant: settings.perTenant,
          orderedHoldMs: settings.orderedHoldMs,
        },
        this.candidates,
      );
      if (claim.wakeAt !== null) this.wakeAt(claim.wakeAt, this.candidates);
      // An ordered head given up published its operational event: claimed once this pump ends.
      if (claim.queued) this.wake(claim.queued);
      if (claim.exhausted.length > 0) {
        const exhausted = new Set(claim.exhausted);
        this.candidates = this.candidates.filter((candidate) => !exhausted.has(candidate.configId));
      }
      if (claim.ids.length === 0) return;
      for (const context of await this.contextsOf(claim.ids)) {
        this.inFlight++;
        void this.attempt(context)
          .catch((error: unknown) => log.error('webhook.attempt_error', { deliveryId: context.delivery.id, ...redactError(error) }))
          .finally(() => {
            this.inFlight--;
            if (this.inFlight === 0) this.drained?.();
            this.wakeAfterAttempt();
          });
      }
    }
  }

  /**
   * Wakes at `at` (the earliest wanted, if several): a rate-limited configuration's next slot, or an
   * ordered one's head coming due for its retry, comes sooner than the poll, and must go when it does.
   * The candidates of the claim that asked come back then (the configuration may have left them when
   * it had nothing to give), rather than a fresh look at every configuration: at 50/s that would be
   * ten looks a second for one configuration.
   */
  private wakeAt(at: number, candidates: readonly Candidate[]): void {
    const held = this.heldBack?.candidates ?? new Map<string, Candidate>();
    for (const candidate of candidates) held.set(candidate.configId, candidate);
    if (this.heldBack && this.heldBack.at <= at) return;
    clearTimeout(this.heldBack?.timer);
    const timer = setTimeout(
      () => {
        this.heldBack = undefined;
        this.wake([...held.values()]);
      },
      Math.max(0, at - this.deps.clock()),
    );
    timer.unref();
    this.heldBack = { at, timer, candidates: held };
  }

  /**
   * The claimed deliveries' contexts. Should reading them fail, the claims are given back due a
   * retry step later (the database's own outage aside, when the leases simply run out).
   */
  private async contextsOf(ids: readonly string[]): Promise<AttemptContext[]> {
    const { store, settings, clock } = this.deps;
    try {
      return await store.contexts(ids);
    } catch (error) {
      log.error('webhook.claim_unreadable', { deliveries: ids.length, ...redactError(error) });
      const firstStep = settings.retry.scheduleSeconds[0] ?? 5;
      await store.release(this.owner, ids, clock() + firstStep * 1000).catch(() => undefined);
      return [];
    }
  }

  private async attempt(context: AttemptContext): Promise<void> {
    const { store } = this.deps;
    const deliveryId = context.delivery.id;
    // Claimed just before a deploy began: given back unsent, for any instance to take at once.
    if (this.stopping) return store.release(this.owner, [deliveryId]);
    // Disabled after the event was accepted: kept as skipped, for a recovery. Test events still go.
    if (!context.config.enabled && context.event.tipo !== 'webhook.teste') return store.skip(this.owner, deliveryId);
    if (!(await this.paced(context))) return;
    await attempt(this.attemptDeps, context);
  }

  /**
   * A rate-limited configuration's request takes its send slot just before it leaves, when the slot
   * is due (not at the claim, whose clock a wait for the tenant's lock or a busy machine makes
   * stale; nor ahead of time, since a wait that ran late would then bunch with the next request).
   * The claim admitted it at about the rate, so the wait is short (at most the per-configuration
   * cap's worth of slots). Should the slot not be taken (the database is away),
   * the delivery is given back a retry step later rather than sent beyond the limit.
   */
  private async paced(context: AttemptContext): Promise<boolean> {
    const perSecond = context.config.ratePerSecond;
    if (perSecond === null || perSecond === undefined) return true;
    const { store, clock, settings } = this.deps;
    try {
      for (let wait = await store.sendSlot(context.config.id, perSecond, clock); wait > 0;) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = await store.sendSlot(context.config.id, perSecond, clock);
      }
    } catch (error) {
      log.error('webhook.send_slot_unavailable', { deliveryId: context.delivery.id, ...redactError(error) });
      const firstStep = settings.retry.scheduleSeconds[0] ?? 5;
      await store.release(this.owner, [context.delivery.id], clock() + firstStep * 1000).catch(() => undefined);
      return false;
    }
    return true;
  }
}
