import { fairShares, type Candidate } from '@/lib/webhooks/delivery/fair-share';
import { sendSlot } from '@/lib/webhooks/delivery/pacing';
import type { AttemptContext, AttemptRecord, Claim, ClaimSettings, Recorded } from '@/lib/webhooks/delivery/store';
import type { WorkerStore } from '@/lib/webhooks/delivery/worker';

/**
 * An in-memory delivery store for the worker's unit test (worker.test.ts): it claims as the
 * database store does (live leases, fair shares per tenant and configuration) and records what it
 * is given, and can be told to fail a write or to answer that a lease was lost. The database store
 * itself is held to the same behaviour by the repository contract on every database.
 */
type Row = {
  id: string;
  configId: string;
  tenant: string;
  status: string;
  attempts: number;
  dueAt: number | null;
  owner?: string;
  leaseUntil?: number;
};

export class MemoryStore implements WorkerStore {
  readonly rows = new Map<string, Row>();
  readonly recorded: AttemptRecord[] = [];
  claims = 0;
  /** Looks at every configuration (waiting). */
  lookups = 0;
  /** Configurations paced to one attempt per `intervalMs`, as a rate limit is in the database store's claim. */
  readonly paced = new Map<string, { intervalMs: number; nextAt: number }>();
  /** Make the next writes fail (a database error), or answer that the lease was lost. */
  failWrites = 0;
  loseLeases = false;

  add(configId: string, tenant: string, count = 1, now = Date.now()): void {
    for (let i = 0; i < count; i++) {
      const id = `msg_${configId}_${this.rows.size}`;
      this.rows.set(id, { id, configId, tenant, status: 'pendente', attempts: 0, dueAt: now });
    }
  }

  async waiting(now: number): Promise<Candidate[]> {
    this.lookups++;
    const seen = new Map<string, Candidate>();
    for (const row of this.rows.values()) {
      if (row.status === 'pendente' && row.dueAt !== null && row.dueAt <= now)
        seen.set(row.configId, { configId: row.configId, tenant: row.tenant });
    }
    return [...seen.values()];
  }

  async claim(owner: string, settings: ClaimSettings, candidates: readonly Candidate[]): Promise<Claim> {
    this.claims++;
    const live = [...this.rows.values()].filter((row) => (row.leaseUntil ?? 0) >= settings.now);
    const count = (key: (row: Row) => string) => {
      const counts = new Map<string, number>();
      for (const row of live) counts.set(key(row), (counts.get(key(row)) ?? 0) + 1);
      return counts;
    };
    const configs = count((row) => row.configId);
    const pace = (configId: string) => this.paced.get(configId);
    const shares = fairShares(
      candidates,
      { configs, tenants: count((row) => row.tenant) },
      {
        limit: settings.limit,
        perTenant: settings.perTenant,
        capOf: (configId) => {
          const paced = pace(configId);
          if (!paced) return settings.perEndpoint;
          return (configs.get(configId) ?? 0) + (paced.nextAt <= settings.now ? 1 : 0);
        },
      },
    );
    const ids: string[] = [];
    const exhausted: string[] = [];
    for (const [configId, share] of shares) {
      const due = [...this.rows.values()].filter(
        (row) =>
          row.configId === configId &&
          row.status === 'pendente' &&
          row.dueAt !== null &&
          row.dueAt <= settings.now &&
          (row.leaseUntil ?? 0) < settings.now,
      );
      for (const row of due.slice(0, share)) {
        Object.assign(row, { owner, leaseUntil: settings.now + settings.leaseMs });
        ids.push(row.id);
      }
      const paced = pace(configId);
      if (paced && due.length > 0) paced.nextAt = settings.now + paced.intervalMs;
      if (due.length < share) exhausted.push(configId);
    }
    const heldBack = candidates.flatMap(({ configId }) => {
      const nextAt = pace(configId)?.nextAt;
      return nextAt !== undefined && nextAt > settings.now ? [nextAt] : [];
    });
    return { ids, exhausted, wakeAt: heldBack.length > 0 ? Math.min(...heldBack) : null };
  }

  async contexts(ids: readonly string[]): Promise<AttemptContext[]> {
    return ids.map((id) => {
      const row = this.rows.get(id)!;
      return {
        delivery: {
          id,
          eventId: `evt_${id}`,
          configId: row.configId,
          status: 'pendente',
          attempts: row.attempts,
          createdAt: 0,
          nextAttemptAt: row.dueAt,
          lastAttemptAt: null,
          lastStatus: null,
          lastDurationMs: null,
          lastBody: null,
          lastError: null,
          leaseUntil: row.leaseUntil ?? null,
          failingSince: null,
          earlyProbes: 0,
        },
        event: { id: `evt_${id}`, idEvento: null, tipo: 'proposta.cancelada', usuarioId: row.tenant, dados: {}, createdAt: 0 },
        config: {
          id: row.configId,
          url: `fake://${row.configId}`,
          headers: [],
          enabled: true,
          secretEnc: 'unused',
          previousSecretEnc: null,
          previousSecretUntil: null,
          failingSince: null,
          circuitFailures: 0,
          circuitOpenUntil: null,
        },
      };
    });
  }

  async record(owner: string, records: readonly AttemptRecord[]): Promise<Recorded[]> {
    if (this.failWrites > 0) {
      this.failWrites--;
      throw new Error('disk I/O error');
    }
    return records.map((record) => {
      const row = this.rows.get(record.context.delivery.id)!;
      if (this.loseLeases || row.owner !== owner) return { written: false };
      Object.assign(row, {
        status: record.decision.status,
        attempts: row.attempts + 1,
        dueAt: record.decision.nextAttemptAt,
        owner: undefined,
        leaseUntil: undefined,
      });
      this.recorded.push(record);
      return { written: true };
    });
  }

  async release(owner: string, ids: readonly string[], retryAt?: number): Promise<void> {
    for (const id of ids) {
      const row = this.rows.get(id)!;
      if (row.owner !== owner) continue;
      Object.assign(row, { owner: undefined, leaseUntil: undefined, ...(retryAt === undefined ? {} : { dueAt: retryAt }) });
    }
  }

  async skip(owner: string, id: string): Promise<void> {
    Object.assign(this.rows.get(id)!, { status: 'ignorada', dueAt: null, owner: undefined, leaseUntil: undefined });
  }

  private readonly sendTats = new Map<string, number>();

  async sendSlot(configId: string, perSecond: number, clock: () => number): Promise<number> {
    const slot = sendSlot({ perSecond, tat: this.sendTats.get(configId) ?? null }, clock());
    if (!slot.goNow) return slot.waitMs;
    this.sendTats.set(configId, slot.tat);
    return 0;
  }
}
