import 'server-only';
import type { Knex } from 'knex';
import { env } from '@/lib/config/env';
import { pruneAuditBatch } from '@/lib/audit/store';
import { log, outsideRequest, redactError } from '@/lib/log';
import { pruneHistoryBatch, pruneRollups, rollUpStep } from '@/lib/webhooks/delivery/store';
import { prunePortalRows } from '@/lib/portal/store';
import { purgeReleaseIdentifiers } from '@/lib/scheduling/recent-reservations-store';
import { getDb } from '@/lib/db/handle';

/**
 * Retention (issue 18): delivery history older than WEBHOOK_RETENTION_DAYS, and the audit trail
 * older than AUDIT_RETENTION_DAYS when the operator sets it (unset keeps every entry). Each
 * instance sweeps hourly; a sweep deletes in batches of RETENTION_BATCH events (with their
 * deliveries) or audit entries, one short statement or transaction each, pausing between them
 * (inBatches), so requests and deliveries are never held up for long.
 * Instances sweeping at once delete the same rows once. Partner portal links and sessions go a day
 * after they ended (a handful of rows each sweep; the audit trail keeps what was done with them).
 * The patient identifiers kept for a reservation's one-click release go once its hold has lapsed
 * (a release clears them at once).
 *
 * The same timers keep the delivery log's hourly roll-ups (issue 45 §6; store/rollups.ts), which the
 * health and triage figures read: every ROLLUP_EVERY_MS the hours that have ended are counted once,
 * and the sweep deletes the roll-ups that retention has passed.
 */
/**
 * Small batches, long pauses (issue 45): on SQLite a batch's deletes run on the serving thread and
 * hold the one writer, so a request that arrives during one waits for it. A batch of 20 events with
 * their deliveries and attempts takes a few milliseconds, and the pause after it is long enough
 * that the purge (and the roll-up's steps) take at most PURGE_SHARE of the time: a request meets a
 * batch rarely enough that the requests' 95th percentile does not move. That still deletes some
 * hundreds of events a second, far more than any delivery rate adds.
 */
const RETENTION_BATCH = 20;
const PURGE_SHARE = 0.05;
const MIN_PAUSE_MS = 20;
const SWEEP_EVERY_MS = 60 * 60_000;
/** Often enough that the figures count few raw attempts (the hours since the last roll-up). */
const ROLLUP_EVERY_MS = 5 * 60_000;
/** The first sweep waits a little after start, so it never competes with a deploy's warm-up. */
const FIRST_SWEEP_AFTER_MS = 30_000;
const DAY_MS = 86_400_000;

export type RetentionSettings = { deliveryDays: number; auditDays?: number };
export type Swept = {
  deliveries: number;
  events: number;
  audit: number;
  portal: number;
  releaseIdentifiers: number;
  rollups: number;
};

/** How the purge goes: events per batch, and the pause after each (a test's may be none). */
export type Pacing = { batch: number; pause: (started: number) => Promise<void> };

export async function sweepRetention(
  db: Knex,
  settings: RetentionSettings,
  now: number,
  pacing: Pacing = { batch: RETENTION_BATCH, pause: pauseAfter },
): Promise<Swept> {
  const deliveriesBefore = now - settings.deliveryDays * DAY_MS;
  let deliveries = 0;
  const events = await inBatches(async (size) => {
    const pruned = await pruneHistoryBatch(db, deliveriesBefore, size);
    deliveries += pruned.deliveries;
    return pruned.events;
  }, pacing);
  const audit =
    settings.auditDays === undefined ? 0 : await inBatches((size) => pruneAuditBatch(db, now - settings.auditDays! * DAY_MS, size), pacing);
  const rollups = await pruneRollups(db, deliveriesBefore);
  const portal = await prunePortalRows(db, now - DAY_MS);
  const releaseIdentifiers = await purgeReleaseIdentifiers(db, now);
  return { deliveries, events, audit, portal, releaseIdentifiers, rollups };
}

/**
 * Rolls up the delivery log's hours that have ended (store/rollups.ts), six hours per step,
 * pausing between steps as the purge does: the first pass over a long history never holds the
 * serving thread or the writer for long. Answers how many hours it rolled up.
 */
export async function rollUpHistory(db: Knex, now: number): Promise<number> {
  let total = 0;
  for (;;) {
    const started = performance.now();
    const hours = await rollUpStep(db, now);
    total += hours;
    if (hours === 0) return total;
    await pauseAfter(started);
  }
}

/**
 * Prunes batch after batch, pausing after each (pauseAfter): the purge takes at most PURGE_SHARE of
 * the serving thread and of the database's writer, however long the history, and requests waiting
 * for either go in between.
 */
async function inBatches(prune: (batch: number) => Promise<number>, { batch, pause }: Pacing): Promise<number> {
  let total = 0;
  for (;;) {
    const started = performance.now();
    const deleted = await prune(batch);
    total += deleted;
    if (deleted < batch) return total;
    await pause(started);
  }
}

/** A pause that leaves the work since `started` PURGE_SHARE of the time (at least MIN_PAUSE_MS). */
function pauseAfter(started: number): Promise<void> {
  const took = performance.now() - started;
  return new Promise((resolve) => setTimeout(resolve, Math.max(MIN_PAUSE_MS, (took * (1 - PURGE_SHARE)) / PURGE_SHARE)));
}

const holder = globalThis as typeof globalThis & { __retentionTimer?: NodeJS.Timeout; __rollupTimer?: NodeJS.Timeout };

/** Sweeps now and then hourly, and rolls up every ROLLUP_EVERY_MS, in this process (lib/startup.ts). */
export function startRetention(): void {
  if (holder.__retentionTimer) return;
  const rollUp = () =>
    void outsideRequest(async () => {
      const hours = await rollUpHistory(await getDb(), Date.now());
      if (hours > 0) log.info('retention.rolled_up', { hours });
    }).catch((error: unknown) => log.warn('retention.rollup_failed', redactError(error)));
  holder.__rollupTimer = setTimeout(function again() {
    rollUp();
    holder.__rollupTimer = setTimeout(again, ROLLUP_EVERY_MS).unref();
  }, FIRST_SWEEP_AFTER_MS).unref();
  const sweep = () =>
    void outsideRequest(async () => {
      const { WEBHOOK_RETENTION_DAYS, AUDIT_RETENTION_DAYS } = env();
      const swept = await sweepRetention(
        await getDb(),
        { deliveryDays: WEBHOOK_RETENTION_DAYS, auditDays: AUDIT_RETENTION_DAYS },
        Date.now(),
      );
      if (Object.values(swept).some((count) => count > 0)) log.info('retention.swept', swept);
    }).catch((error: unknown) => log.warn('retention.failed', redactError(error)));
  holder.__retentionTimer = setTimeout(function again() {
    sweep();
    holder.__retentionTimer = setTimeout(again, SWEEP_EVERY_MS).unref();
  }, FIRST_SWEEP_AFTER_MS).unref();
}

export function stopRetention(): void {
  clearTimeout(holder.__retentionTimer);
  clearTimeout(holder.__rollupTimer);
  holder.__retentionTimer = undefined;
  holder.__rollupTimer = undefined;
}
