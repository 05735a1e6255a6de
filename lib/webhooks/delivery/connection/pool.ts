import 'server-only';
import type { OwnedSockets } from './guarded';

/**
 * The broker connections a process keeps open between attempts (issue 43), for every broker
 * kind: one per tenant, broker and login (a tenant's connection is never another's), closed once
 * idle for `idleMs`, and at most `perTenant` open or opening per tenant. A tenant at its cap that
 * needs another first gives up its longest idle connection; with none idle, the attempt fails as
 * `limite-conexoes` rather than open one more. Whatever goes away (closed by the broker, discarded
 * after a timeout, trimmed) leaves the pool and destroys its sockets.
 */
export type PoolSettings = {
  /** A connection no attempt used for this long is closed. */
  idleMs: number;
  /** Connections one tenant may have open or opening at once, per process and kind. */
  perTenant: number;
};

export const POOL_DEFAULTS: PoolSettings = { idleMs: 300_000, perTenant: 20 };

/** The tenant already has its cap of connections, all in use. */
export class ConnectionLimitError extends Error {
  readonly code = 'ECONNLIMIT';
  constructor() {
    super('the tenant has its maximum of open broker connections');
  }
}

/** One pooled connection as the kind opened it. */
export type Opened<C> = { connection: C; owned: OwnedSockets };

type Entry<C> = {
  key: string;
  tenant: string;
  opened: Promise<Opened<C>>;
  /** Attempts using it now; an entry in use is never trimmed. */
  busy: number;
  lastUsed: number;
  gone: boolean;
};

export type Lease<C> = {
  connection: Promise<C>;
  /** The attempt is done with it. */
  release(): void;
  /** The connection failed this attempt (a timeout): it leaves the pool, sockets destroyed. */
  discard(): void;
};

/** How long a graceful close may take before the sockets are destroyed. */
const CLOSE_GRACE_MS = 1000;

export class ConnectionPool<C> {
  private readonly entries = new Map<string, Entry<C>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly settings: PoolSettings,
    /** The library's graceful close; the pool destroys the sockets after CLOSE_GRACE_MS anyway. */
    private readonly closeConnection: (connection: C) => Promise<unknown>,
    private readonly clock: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.trimIdle(), Math.max(50, Math.min(settings.idleMs / 2, 30_000)));
    this.sweeper.unref();
  }

  /**
   * The tenant's pooled connection under `key`, or one opened with `open`. Throws
   * ConnectionLimitError when the tenant's connections are all in use at its cap.
   */
  acquire(key: string, tenant: string, open: () => Promise<Opened<C>>): Lease<C> {
    const poolKey = `${tenant}\u0000${key}`;
    let entry = this.entries.get(poolKey);
    if (!entry) {
      // The room is taken now, before any await: concurrent attempts cannot all pass the cap.
      const madeRoom = this.makeRoom(tenant);
      entry = this.add(poolKey, tenant, async () => {
        await madeRoom;
        return open();
      });
    }
    const leased = entry;
    leased.busy++;
    let done = false;
    return {
      connection: leased.opened.then(({ connection }) => connection),
      release: () => {
        if (done) return;
        done = true;
        leased.busy--;
        leased.lastUsed = this.clock();
      },
      discard: () => {
        if (!done) {
          done = true;
          leased.busy--;
        }
        void this.remove(leased, false);
      },
    };
  }

  /** Connections open or opening, per tenant (metrics and specs). */
  openCount(tenant?: string): number {
    let count = 0;
    for (const entry of this.entries.values()) if (tenant === undefined || entry.tenant === tenant) count++;
    return count;
  }

  /** Closes every connection (shutdown). */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.entries.values()].map((entry) => this.remove(entry, true)));
  }

  /** Closes every connection idle for idleMs or more. */
  trimIdle(): void {
    const now = this.clock();
    for (const entry of this.entries.values()) {
      if (entry.busy === 0 && now - entry.lastUsed >= this.settings.idleMs) void this.remove(entry, true);
    }
  }

  private add(poolKey: string, tenant: string, open: () => Promise<Opened<C>>): Entry<C> {
    const entry: Entry<C> = { key: poolKey, tenant, opened: open(), busy: 0, lastUsed: this.clock(), gone: false };
    this.entries.set(poolKey, entry);
    entry.opened.then(
      ({ owned }) => {
        // A connection whose sockets all closed (the broker went away) is no longer one.
        if (owned.sockets.size === 0) return void this.remove(entry, false);
        for (const socket of owned.sockets) socket.once('close', () => void this.remove(entry, false));
      },
      () => void this.remove(entry, false),
    );
    return entry;
  }

  /**
   * Room for one more of the tenant's connections: at the cap, its longest idle ones leave the pool
   * now (synchronously) and the answer settles once they are closed. Throws ConnectionLimitError
   * when every one is in use.
   */
  private makeRoom(tenant: string): Promise<unknown> {
    const own = [...this.entries.values()].filter((entry) => entry.tenant === tenant);
    if (own.length < this.settings.perTenant) return Promise.resolve();
    const idle = own.filter((entry) => entry.busy === 0).sort((a, b) => a.lastUsed - b.lastUsed);
    if (own.length - idle.length >= this.settings.perTenant) throw new ConnectionLimitError();
    return Promise.all(idle.slice(0, own.length - this.settings.perTenant + 1).map((entry) => this.remove(entry, true)));
  }

  /** Takes the entry out of the pool and ends its connection: gracefully, or its sockets destroyed at once. */
  private async remove(entry: Entry<C>, graceful: boolean): Promise<void> {
    if (entry.gone) return;
    entry.gone = true;
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    let opened: Opened<C>;
    try {
      opened = await entry.opened;
    } catch {
      return; // It never opened: the guarded opening destroyed its sockets.
    }
    if (graceful) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise((done) => (timer = setTimeout(done, CLOSE_GRACE_MS)));
      await Promise.race([this.closeConnection(opened.connection).catch(() => undefined), grace]);
      clearTimeout(timer);
    } else {
      void this.closeConnection(opened.connection).catch(() => undefined);
    }
    opened.owned.destroy();
  }
}
