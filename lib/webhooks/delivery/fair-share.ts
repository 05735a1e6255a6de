/**
 * How a claim hands out free worker slots (issue 27): tenants first, then configurations, so that
 * neither a tenant with hundreds of configurations nor one configuration with a backlog of
 * thousands takes more than its turn. Pure; the delivery store (store/claims.ts) counts what is in flight and locks.
 */
export type Candidate = { configId: string; tenant: string };

/** Attempts in flight (every instance's live leases), per configuration and per tenant. */
export type InFlight = { configs: ReadonlyMap<string, number>; tenants: ReadonlyMap<string, number> };

export type ShareLimits = {
  /** Slots to hand out. */
  limit: number;
  /** Attempts one tenant may have in flight at once, across every instance. */
  perTenant: number;
  /** Attempts one configuration may have in flight at once: its per-endpoint cap, or its circuit's. */
  capOf: (configId: string) => number;
};

type Queue = { configs: { id: string; room: number }[]; room: number; next: number };

/**
 * Slots per configuration: tenants take turns, one slot a turn, those with the fewest attempts in
 * flight first (ties: the order of `candidates`, whose due deliveries have waited longest first);
 * within a tenant its configurations take turns the same way. A tenant stops at its free room
 * (perTenant less its attempts in flight), a configuration at its own.
 */
export function fairShares(candidates: readonly Candidate[], inFlight: InFlight, limits: ShareLimits): Map<string, number> {
  const queues = new Map<string, Queue>();
  for (const { configId, tenant } of candidates) {
    let queue = queues.get(tenant);
    if (!queue) {
      queue = { configs: [], room: limits.perTenant - (inFlight.tenants.get(tenant) ?? 0), next: 0 };
      queues.set(tenant, queue);
    }
    const room = limits.capOf(configId) - (inFlight.configs.get(configId) ?? 0);
    if (room > 0 && !queue.configs.some((config) => config.id === configId)) queue.configs.push({ id: configId, room });
  }
  const busy = (tenant: string) => inFlight.tenants.get(tenant) ?? 0;
  const turns = [...queues]
    .filter(([, queue]) => queue.room > 0 && queue.configs.length > 0)
    .sort(([a], [b]) => busy(a) - busy(b))
    .map(([, queue]) => {
      queue.configs.sort((a, b) => (inFlight.configs.get(a.id) ?? 0) - (inFlight.configs.get(b.id) ?? 0));
      return queue;
    });
  const shares = new Map<string, number>();
  let left = limits.limit;
  let handedOut = true;
  while (left > 0 && handedOut) {
    handedOut = false;
    for (const queue of turns) {
      if (left === 0) break;
      const config = nextWithRoom(queue);
      if (!config) continue;
      config.room--;
      queue.room--;
      shares.set(config.id, (shares.get(config.id) ?? 0) + 1);
      left--;
      handedOut = true;
    }
  }
  return shares;
}

/** The tenant's next configuration in turn that still has room, if the tenant has. */
function nextWithRoom(queue: Queue): { id: string; room: number } | undefined {
  if (queue.room <= 0) return undefined;
  for (let tried = 0; tried < queue.configs.length; tried++) {
    const config = queue.configs[queue.next % queue.configs.length]!;
    queue.next++;
    if (config.room > 0) return config;
  }
  return undefined;
}
