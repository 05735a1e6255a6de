import { afterEach, describe, expect, it } from 'vitest';
import type { Destinations, OutgoingMessage, Sent } from './destinations';
import { MemoryStore } from '@/lib/testing/memory-delivery-store';
import { DeliveryWorker, type WorkerSettings } from './worker';

/**
 * The worker with fakes (issue 28): an in-memory store that claims as the database store does (live
 * leases, fair shares per tenant and configuration) and destinations scripted per target. The
 * database store itself is covered by the repository contract on every database.
 */
type Behaviour = (message: OutgoingMessage) => Promise<Sent> | Sent;
const delivered = (): Sent => ({ startedAt: Date.now(), durationMs: 1, verdict: { result: 'delivered' }, status: 204, body: '' });

/** Destinations answering per configuration (`fake://<configId>`); unscripted ones deliver at once. */
function scripted(behaviours: Record<string, Behaviour>): Destinations & { sent: { configId: string; id: string }[] } {
  const sent: { configId: string; id: string }[] = [];
  const route = (target: string) => ({
    kind: 'fake',
    spanAttributes: {},
    send: async (message: OutgoingMessage) => {
      const configId = target.slice('fake://'.length);
      sent.push({ configId, id: message.id });
      return (behaviours[configId] ?? delivered)(message);
    },
  });
  return { sent, route: (target) => (target.startsWith('fake://') ? route(target) : undefined), close: async () => undefined };
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

  it('wakes when a paced configuration may go again, with the candidates it had, not a fresh look at every configuration', async () => {
    const store = new MemoryStore();
    store.add('paced', 'tenant', 5);
    store.paced.set('paced', { intervalMs: 40, nextAt: 0 });
    const destinations = scripted({});
    // No poll within the test: only the held-back wake can send the four that wait for their turn.
    workerWith(store, destinations, { pollMs: 60_000 }).start();
    const started = Date.now();
    await until(() => store.recorded.length === 5);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 40 - 10);
    expect(store.lookups).toBe(1);
  });
});
