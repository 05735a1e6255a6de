import 'server-only';
import type { Knex } from 'knex';
import { env } from '@/lib/config/env';
import { refuse } from '@/lib/errors/refusal';
import { log } from '@/lib/log';
import { findWebhook } from '@/lib/webhooks/configurations/store/configs';
import { nthNewestEventSince, nthNewestTestDeliverySince } from './store';

/**
 * Tenant quotas (issue 27): what one tenant or producer may ask of what every tenant shares (the
 * delivery worker's window of waiting configurations, its slots, the event intake). Each limit is
 * a setting; each is counted in the shared database inside the transaction that would write, so
 * every instance sees the same count:
 * - configurations per tenant: lib/webhooks/configurations/quota.ts;
 * - test events per configuration: counted under the configuration's row lock, exact too;
 * - events per producer: counted without a lock, so that one producer's publishes do not queue
 *   behind each other; on PostgreSQL and Oracle, publishes of one producer that run at the same
 *   moment do not see each other's uncommitted events, so a second may take at most the limit
 *   plus the producer's publishes in flight at once (each instance runs at most DATABASE_POOL_MAX
 *   transactions). SQLite has one writer: exact.
 * A producer's count is every event it created in the window: test events it sent count too (at
 * most MAX_TEST_EVENTS_PER_MINUTE a configuration, so little). Refusals are problem+json naming the
 * limit in `detail` and as the `limite` member.
 */
export const QUOTA_PROBLEMS = {
  testEvents: 'test-event-rate',
  publish: 'publish-rate',
} as const;

const TEST_EVENT_WINDOW_MS = 60_000;
const PUBLISH_WINDOW_MS = 1000;

/** Seconds until a sliding window's `nth` newest entry (created at `at`) leaves it: at least 1. */
function secondsUntilRoom(at: number, windowMs: number, now: number): number {
  return Math.max(1, Math.ceil((at + windowMs - now) / 1000));
}

/** A test event past MAX_TEST_EVENTS_PER_MINUTE to one configuration in 60 s is refused (429). */
export async function assertTestEventRoom(trx: Knex.Transaction, configId: string, now: number): Promise<void> {
  const limit = env().MAX_TEST_EVENTS_PER_MINUTE;
  // Two test events for one configuration on two instances count one after the other.
  await findWebhook(trx, configId, { lock: true });
  const nth = await nthNewestTestDeliverySince(trx, configId, now - TEST_EVENT_WINDOW_MS + 1, limit);
  if (nth === null) return;
  log.info('webhook.quota_exceeded', { quota: QUOTA_PROBLEMS.testEvents, limit, configId });
  throw refuse.rateLimited(
    QUOTA_PROBLEMS.testEvents,
    secondsUntilRoom(nth, TEST_EVENT_WINDOW_MS, now),
    `This configuration was sent ${limit} test events in the last 60 seconds, the most allowed (MAX_TEST_EVENTS_PER_MINUTE); send the next after Retry-After seconds.`,
    { limite: limit, janelaSegundos: TEST_EVENT_WINDOW_MS / 1000 },
  );
}

/**
 * `count` events (a batch: all or none) that would take one producer past MAX_EVENTS_PER_SECOND in a
 * second are refused (429) and not recorded.
 */
export async function assertPublishRoom(trx: Knex.Transaction, producer: string, now: number, count = 1): Promise<void> {
  const limit = env().MAX_EVENTS_PER_SECOND;
  // Room for `count` more: fewer than limit - count + 1 events of this producer in the window.
  const nth = count > limit ? now : await nthNewestEventSince(trx, producer, now - PUBLISH_WINDOW_MS + 1, limit - count + 1);
  if (nth === null) return;
  log.info('webhook.quota_exceeded', { quota: QUOTA_PROBLEMS.publish, limit });
  throw refuse.rateLimited(
    QUOTA_PROBLEMS.publish,
    secondsUntilRoom(nth, PUBLISH_WINDOW_MS, now),
    count > limit
      ? `A batch of ${count} events is more than the ${limit} a producer may publish in a second (MAX_EVENTS_PER_SECOND); nothing was recorded: publish it in smaller batches.`
      : count > 1
        ? `These ${count} events would take this producer past ${limit} events in a second, the most allowed (MAX_EVENTS_PER_SECOND); nothing was recorded: publish them again after Retry-After seconds.`
        : `This producer published ${limit} events in the last second, the most allowed (MAX_EVENTS_PER_SECOND); nothing was recorded: publish it again after Retry-After seconds.`,
    { limite: limit, janelaSegundos: PUBLISH_WINDOW_MS / 1000 },
  );
}
