import { afterEach, describe, expect, it } from 'vitest';
import type { Destination, Destinations, OutgoingMessage, Sent } from './destinations';
import { fairShares, type Candidate } from './fair-share';
import type { AttemptContext, AttemptRecord, Claim, ClaimSettings, Recorded } from './store';
import { DeliveryWorker, type WorkerSettings, type WorkerStore } from './worker';

/**
 * The worker with fakes (issue 28): an in-memory store that claims as the database store does (live
 * leases, fair shares per tenant and configuration) and destinations scripted per target. The
 * database store itself is covered by the repository contract on every database.
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

class MemoryStore implements WorkerStore {
  readonly rows = new Map<string, Row>();
  readonly recorded: AttemptRecord[] = [];
  claims = 0;
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
    const shares = fairShares(
      candidates,
      { configs: count((row) => row.configId), tenants: count((row) => row.tenant) },
      {
        limit: settings.limit,
        perTenant: settings.perTenant,
        capOf: () => settings.perEndpoint,
      },
    );
    const ids: string[] = [];
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
    }
    return { ids, exhausted: [] };
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
        },
        event: { id: `evt_${id}`, idEvento: null, tipo: 'eventoPropostaCancelada', usuarioId: row.tenant, dados: {}, createdAt: 0 },
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
}

type Behaviour = (message: OutgoingMessage) => Promise<Sent> | Sent;
const delivered = (): Sent => ({ startedAt: Date.now(), durationMs: 1, verdict: { result: 'delivered' }, status: 204, body: '' });

/** Destinations answering per configuration (`fake://<configId>`); unscripted ones deliver at once. */
function scripted(behaviours: Record<string, Behaviour>): Destinations & { sent: { configId: string; id: string }[] } {
  const sent: { configId: string; id: string }[] = [];
  const destination: Destination = {
    kind: 'fake',
    accepts: (target) => target.startsWith('fake://'),
    spanAttributes: () => ({}),
    send: async (target, message) => {
      const configId = target.slice('fake://'.length);
      sent.push({ configId, id: message.id });
      return (behaviours[configId] ?? delivered)(message);
    },
    close: async () => undefined,
  };
  return { sent, forTarget: (target) => (destination.accepts(target) ? destination : undefined), close: async () => undefined };
}

const settings: WorkerSettings = {
  concurrency: 16,
  perEndpoint: 4,
  perTenant: 8,
  pollMs: 20,
  send: { timeoutMs: 1000, allowPrivateTargets: false },
  retry: { scheduleSeconds: [5, 300], disableAfterMs: 3_600_000 },
  circuit: { threshold: 5, openMs: 30_000, maxOpenMs: 1_800_000 },
};

const workers: DeliveryWorker[] = [];
function workerWith(store: MemoryStore, destinations: Destinations, overrides: Partial<WorkerSettings> = {}) {
  const worker = new DeliveryWorker({
    store,
    destinations,
    settings: { ...settings, ...overrides },
    clock: Date.now,
    signingSecrets: () => ['whsec_dGVzdA=='],
  });
  workers.push(worker);
  return worker;
}

async function until(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A promise and the function that settles it. */
function gate<T>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop(0)));
});

describe('the delivery worker', () => {
  it('sends what is due, signed, and records each outcome', async () => {
    const store = new MemoryStore();
    store.add('c1', 't1', 3);
    const destinations = scripted({});
    workerWith(store, destinations).start();
    await until(() => store.recorded.length === 3);
    expect(store.recorded.every((record) => record.decision.status === 'entregue' && record.outcome.error === null)).toBe(true);
    // What the log keeps of what was sent: the ids, and the signature masked.
    const { requestHeaders } = store.recorded[0]!.outcome;
    expect(requestHeaders).toMatchObject({ 'webhook-id': store.recorded[0]!.context.delivery.id, 'webhook-signature': '••••••' });
    expect(destinations.sent).toHaveLength(3);
  });

  it('records a destination that throws as a failed attempt (erro-interno, an outage), retried by the schedule', async () => {
    const store = new MemoryStore();
    store.add('c1', 't1');
    workerWith(store, scripted({ c1: () => Promise.reject(new TypeError('bug in a destination')) })).start();
    await until(() => store.recorded.length === 1);
    const [record] = store.recorded;
    expect(record!.outcome).toMatchObject({ error: 'erro-interno', outage: true, status: null });
    expect(record!.decision.status).toBe('pendente');
    expect(record!.decision.nextAttemptAt).toBeGreaterThan(Date.now() + 3000);
    expect(store.rows.get(record!.context.delivery.id)).toMatchObject({ owner: undefined, attempts: 1 });
  });

  it('records an outcome whose write failed once again without the answer, so no lease is kept', async () => {
    const store = new MemoryStore();
    store.add('c1', 't1');
    store.failWrites = 1;
    workerWith(store, scripted({})).start();
    await until(() => store.recorded.length === 1);
    expect(store.recorded[0]!.outcome).toMatchObject({ body: null, requestHeaders: {} });
  });

  it('carries on after a lost lease (another instance took the delivery over): nothing written, nothing thrown', async () => {
    const store = new MemoryStore();
    store.add('c1', 't1', 2);
    store.loseLeases = true;
    const destinations = scripted({});
    const worker = workerWith(store, destinations);
    worker.start();
    await until(() => destinations.sent.length >= 2);
    await until(() => worker.busy === 0);
    expect(store.recorded).toEqual([]);
  });

  it('drains on stop: attempts in flight finish and are recorded, and nothing more is claimed', async () => {
    const store = new MemoryStore();
    store.add('c1', 't1', 2);
    const answer = gate<Sent>();
    const destinations = scripted({ c1: () => answer.promise });
    const worker = workerWith(store, destinations);
    worker.start();
    await until(() => destinations.sent.length === 2);
    const stopped = worker.stop(5000);
    store.add('c2', 't1', 5);
    const claimsAtStop = store.claims;
    await new Promise((resolve) => setTimeout(resolve, 60));
    answer.open(delivered());
    expect(await stopped).toEqual({ unfinished: 0 });
    expect(store.recorded).toHaveLength(2);
    expect(store.claims).toBe(claimsAtStop);
    expect(destinations.sent.every((sent) => sent.configId === 'c1')).toBe(true);
  });

  it('gives up waiting at the deadline, leaving the unfinished attempts leased', async () => {
    const store = new MemoryStore();
    store.add('c1', 't1');
    const destinations = scripted({ c1: () => new Promise<Sent>(() => undefined) });
    const worker = workerWith(store, destinations);
    worker.start();
    await until(() => destinations.sent.length === 1);
    expect(await worker.stop(50)).toEqual({ unfinished: 1 });
    expect([...store.rows.values()][0]!.owner).toBe(worker.owner);
  });

  it('keeps a tenant with hundreds of hung receivers to its share: another tenant’s message goes out at once', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 300; i++) store.add(`h${i}`, 'hostil', 3);
    const hang: Record<string, Behaviour> = {};
    for (let i = 0; i < 300; i++) hang[`h${i}`] = () => new Promise<Sent>(() => undefined);
    const destinations = scripted(hang);
    workerWith(store, destinations).start();
    await until(() => destinations.sent.length === settings.perTenant);
    store.add('b1', 'saudavel');
    const published = Date.now();
    await until(() => store.recorded.some((record) => record.context.config.id === 'b1'));
    expect(Date.now() - published).toBeLessThan(500);
    expect(destinations.sent.filter((sent) => sent.configId.startsWith('h'))).toHaveLength(settings.perTenant);
  });
});
