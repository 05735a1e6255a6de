import 'server-only';
import type { Knex } from 'knex';
import { type DbRow } from '@/lib/db/dialect';
import { fastWriteTransaction } from '@/lib/db/direct-transaction';
import { dialectOfExecutor, precompiled, precompiledPerCount, type Executor } from '@/lib/db/precompiled';
import { fairShares, type Candidate, type InFlight } from '../fair-share';
import { advancePacing, capAfterClaim, controlsOf, earliest, roomOf } from './controls';
import { giveUpHead, pickDue } from './due';
import { ensureTenantRow, lockTenants } from '../../configurations/store/tenants';

/** Claiming due deliveries for an instance's free slots, fairly across tenants and configurations, and giving claims back. */

export type ClaimSettings = {
  /** Free worker slots of this process. */
  limit: number;
  now: number;
  leaseMs: number;
  /** Attempts in flight to one configuration at once, across every instance. */
  perEndpoint: number;
  /** Attempts in flight for one tenant (all its configurations) at once, across every instance. */
  perTenant: number;
  /** With ordered delivery, how long a failing head may hold the rest before it is given up (none: as long as its retries last). */
  orderedHoldMs?: number;
};

/**
 * Every configuration with due deliveries whose circuit lets an attempt through, with its tenant,
 * those whose deliveries have waited longest first. No window: a claim must see every tenant with
 * work, however many configurations another one has. It probes each configuration once, so the
 * worker keeps its answer for a second and claims among it. Tenants without their lock row yet
 * (configurations older than the row's first event) get it here.
 */
export async function waitingCandidates(db: Knex, now: number): Promise<Candidate[]> {
  const rows = (await waitingConfigs(db, now)) as DbRow[];
  const missing = new Set(
    rows.filter((row) => row.tenant_row === null || row.tenant_row === undefined).map((row) => String(row.usuario_id)),
  );
  for (const tenant of missing) await ensureTenantRow(db, tenant);
  return rows.map((row) => ({ configId: String(row.config_id), tenant: String(row.usuario_id) }));
}

export type Claim = {
  ids: string[];
  /** Candidates that had fewer due deliveries than the slots offered: nothing more to claim for now. */
  exhausted: string[];
  /** The earliest moment a candidate held back (its rate limit, its receiver's pause, its ordered head's retry) may go again. */
  wakeAt: number | null;
  /** Configurations to claim for again at once: an ordered head's that was given up, and those that got its operational event. */
  queued?: Candidate[];
};

/**
 * Takes up to `limit` due deliveries for this process among `candidates` (waitingCandidates),
 * fairly across tenants and then configurations (fair-share.ts):
 * 1. shares handed out without locks, to choose which tenants to claim for;
 * 2. those tenants' rows in webhook_tenants locked on PostgreSQL and Oracle (tenants.ts): one
 *    instance at a time claims for a tenant, so the attempts it counts in flight (live leases) are
 *    every instance's, and both caps (per tenant, per configuration) hold across them. SQLite has
 *    one writer;
 * 3. shares handed out again among the locked tenants, each configuration capped by its controls as
 *    they are now (roomOf: circuit, pause, ordering, rate limit);
 * 4. each configuration's oldest due deliveries for its slots (the head of its queue, when
 *    ordered), leased to this process, and its pacing moved on;
 * 5. once that transaction is over, each ordered head that has held the rest for `orderedHoldMs`
 *    given up, in a transaction of its own (due.ts giveUpHead: it publishes an operational event,
 *    which the claim's direct transaction on SQLite cannot write), and its configuration handed
 *    back in `queued` for the worker to claim its next head.
 * The lease outlives one attempt; the outcome write clears it.
 */
export async function claimAmong(db: Knex, owner: string, settings: ClaimSettings, candidates: readonly Candidate[]): Promise<Claim> {
  const { limit, now } = settings;
  if (limit <= 0 || candidates.length === 0) return { ids: [], exhausted: [], wakeAt: null };
  // On SQLite a direct transaction, which shares its commit with the outcomes written in the same turn.
  const { claim, expired } = await fastWriteTransaction(db, (tx) => claimIn(tx, owner, settings, candidates));
  if (expired.length === 0) return claim;
  const queued: Candidate[] = [];
  for (const head of expired) {
    queued.push(...((await db.transaction((trx) => giveUpHead(trx, head.id, now))) ?? []));
    // Its next head may go now: claimed once the worker's pump ends.
    queued.push(...candidates.filter((candidate) => candidate.configId === head.configId));
  }
  return { ...claim, queued: [...(claim.queued ?? []), ...queued] };
}

/** The claim itself, in one transaction (claimAmong's steps 1-4). */
async function claimIn(tx: Executor, owner: string, settings: ClaimSettings, candidates: readonly Candidate[]) {
  const { limit, now, leaseMs, perEndpoint, perTenant } = settings;
  const dialect = dialectOfExecutor(tx);
  if (dialect === 'postgres') await tuneClaimTransaction(tx as Knex.Transaction);
  const counted = await attemptsInFlight(tx, now, candidates);
  const chosen = fairShares(candidates, counted, { limit, perTenant, capOf: () => perEndpoint });
  const tenants = new Set(candidates.filter((candidate) => chosen.has(candidate.configId)).map((candidate) => candidate.tenant));
  const locked = await lockTenants(tx, [...tenants]);
  const mine = candidates.filter((candidate) => locked.has(candidate.tenant));
  const controls = await controlsOf(
    tx,
    mine.map((candidate) => candidate.configId),
  );
  const inFlight = dialect === 'sqlite' ? counted : await attemptsInFlight(tx, now, candidates);
  const room = roomOf(controls, now, perEndpoint);
  // A configuration deleted since the look has no row: it gets nothing.
  const shares = [
    ...fairShares(
      mine.filter((candidate) => controls.has(candidate.configId)),
      inFlight,
      { limit, perTenant, capOf: (configId) => capAfterClaim(room.get(configId), inFlight.configs.get(configId) ?? 0) },
    ),
  ];
  const { picked, headsDueAt, expired } = await pickDue(tx, now, shares, controls, settings.orderedHoldMs);
  const ids = picked.map((row) => row.id);
  // A configuration whose head is given up after this claim has more to give: not exhausted.
  const givingUp = new Set(expired.map((head) => head.configId));
  const exhausted = shares
    .filter(([configId, share]) => !givingUp.has(configId) && picked.filter((row) => row.configId === configId).length < share)
    .map(([id]) => id);
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    await leaseDeliveries(chunk.length).run(tx, owner, now + leaseMs, ...chunk);
  }
  await advancePacing(tx, picked, room);
  const wakeAt = earliest([headsDueAt, ...[...room.values()].map((entry) => entry.wakeAt)]);
  const claim: Claim = { ids, exhausted, wakeAt };
  return { claim, expired };
}

/**
 * The claim's statements that run for every claim, precompiled (lib/db/precompiled.ts): building
 * them with knex cost more CPU than running them.
 */
const leaseDeliveries = precompiledPerCount(
  (count) => count + 2,
  (_count, db, owner, until, ...ids) => db('webhook_deliveries').whereIn('id', ids).update({ lease_owner: owner, lease_until: until }),
);
const leasedRows = precompiled<[number]>(1, (db, now) => db('webhook_deliveries').where('lease_until', '>=', now).select('config_id'));
const tenantRows = precompiledPerCount(
  (count) => count,
  (_count, db, ...ids) => db('webhook_configs').whereIn('id', ids).select('id', 'usuario_id'),
);

/**
 * Two settings for the claim's transaction on PostgreSQL, in one round trip:
 * - enable_seqscan off. PostgreSQL plans by its statistics of the table, and a delivery table
 *   without them (a new database; autovacuum off, as on these machines' servers; or far more rows
 *   than at the last ANALYZE) gets the default estimate for the count of attempts in flight: a
 *   sequential scan of every delivery kept, 17-46 ms at 20,000-35,000 rows, twice a claim, under
 *   the tenant's lock (bench:deliveries' rate-limit section), against 0.05 ms by the lease index.
 *   Each of the claim's statements is a lookup by an index.
 * - synchronous_commit off. The tenant's lock is held until the commit, and a commit that waits for
 *   its WAL flush (an fsync, 8 ms and more on a busy disk) makes every other instance's claim for the
 *   tenant wait as long. A lease is no promise to anyone: should the server crash before the flush,
 *   the lease is lost and the delivery is claimed again, as when an instance dies (webhooks are
 *   at least once; the receiver has the webhook-id). The outcome's write stays synchronous.
 */
async function tuneClaimTransaction(trx: Knex.Transaction): Promise<void> {
  await trx.raw('SET LOCAL enable_seqscan = off; SET LOCAL synchronous_commit = off');
}

/** Looks for the waiting configurations and claims among them: one call (tests, tools). */
export async function claimDue(db: Knex, owner: string, settings: ClaimSettings): Promise<string[]> {
  return (await claimAmong(db, owner, settings, await waitingCandidates(db, settings.now))).ids;
}

/**
 * Configurations with due deliveries whose circuit lets an attempt through (closed, or open with
 * its period over: the probe) and whose receiver has not asked for a pause, those whose deliveries
 * have waited longest first. One index probe
 * per configuration (config_id, status, next_attempt_at) whatever the backlog. Deliveries in flight
 * count as waiting here: the claim's count of attempts in flight sorts them out.
 */
function waitingConfigs(db: Knex, now: number) {
  // A half-open circuit's configuration waits with any pending delivery: its probe need not be due.
  const oldestDue = db('webhook_deliveries as d')
    .min('d.next_attempt_at')
    .whereRaw('?? = ??', ['d.config_id', 'c.id'])
    .andWhere('d.status', 'pendente')
    .andWhere(
      (due) =>
        void due
          .where('d.next_attempt_at', '<=', now)
          .orWhere((halfOpen) => void halfOpen.whereNotNull('c.circuit_open_until').andWhere('c.circuit_open_until', '<=', now)),
    );
  const configs = db('webhook_configs as c')
    .leftJoin('webhook_tenants as t', 't.usuario_id', 'c.usuario_id')
    .where((query) => void query.whereNull('c.circuit_open_until').orWhere('c.circuit_open_until', '<=', now))
    .andWhere((query) => void query.whereNull('c.paused_until').orWhere('c.paused_until', '<=', now))
    .select('c.id as config_id', 'c.usuario_id', 't.usuario_id as tenant_row', oldestDue.as('oldest'));
  return db
    .from(configs.as('w'))
    .whereNotNull('oldest')
    .orderBy('oldest')
    .orderBy('config_id')
    .select('config_id', 'usuario_id', 'tenant_row');
}

/**
 * Attempts in flight (a live lease, any instance's) per configuration and per tenant. The rows are
 * few (at most every instance's WEBHOOK_CONCURRENCY) and found by lease_until; they are counted here
 * rather than with GROUP BY or a config_id filter, which SQLite would answer through a config_id
 * index, reading each configuration's whole backlog. Tenants come from the candidates, and from the
 * configurations' rows for the few in flight that are not among them (their circuit opened since).
 */
async function attemptsInFlight(tx: Executor, now: number, candidates: readonly Candidate[]): Promise<InFlight> {
  const rows = await leasedRows.rows(tx, now);
  const configs = new Map<string, number>();
  for (const row of rows) configs.set(String(row.config_id), (configs.get(String(row.config_id)) ?? 0) + 1);
  const tenantOf = new Map(candidates.map((candidate) => [candidate.configId, candidate.tenant]));
  const unknown = [...configs.keys()].filter((id) => !tenantOf.has(id));
  for (let i = 0; i < unknown.length; i += 1000) {
    const chunk = unknown.slice(i, i + 1000);
    for (const row of await tenantRows(chunk.length).rows(tx, ...chunk)) tenantOf.set(String(row.id), String(row.usuario_id));
  }
  const tenants = new Map<string, number>();
  for (const [configId, count] of configs) {
    const tenant = tenantOf.get(configId);
    if (tenant !== undefined) tenants.set(tenant, (tenants.get(tenant) ?? 0) + count);
  }
  return { configs, tenants };
}

/**
 * Leases this process took but will not use: free for any instance at once (it is stopping), or
 * from `retryAt` on (their attempts could not even be prepared: no instant retry loop).
 */
export async function releaseClaims(db: Knex, owner: string, deliveryIds: readonly string[], retryAt?: number): Promise<void> {
  const later = retryAt === undefined ? {} : { next_attempt_at: retryAt };
  for (let i = 0; i < deliveryIds.length; i += 100) {
    await db('webhook_deliveries')
      .whereIn('id', deliveryIds.slice(i, i + 100))
      .andWhere({ lease_owner: owner })
      .update({ lease_owner: null, lease_until: null, ...later });
  }
}
