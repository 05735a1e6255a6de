import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import type { LookupAddress } from 'node:dns';
import { isIP, type Socket } from 'node:net';
import { BlockedTargetError, isBlockedAddress, type Resolve } from '../checked-lookup';

/**
 * The one way a destination kind opens a connection (issue 43): the target's name is resolved
 * once, with the product's resolver (WEBHOOK_DNS_SERVERS or the system's), every answer is checked
 * against the private-target policy, and the client library is handed that checked address (TLS
 * still verifies the certificate against the name, through `servername`). The opening has a
 * deadline, and every socket the library creates while opening belongs to it: a failure, or the
 * deadline, destroys them, whether or not the library got as far as its own handshake (the
 * clients' close does nothing before a connection is up). A socket that connects anywhere but the
 * checked address is destroyed on connect, whatever the library did with its options.
 *
 * Sockets are seen through Node's `net.client.socket` diagnostics channel (published by
 * net.connect and tls.connect), in the async context of the opening (AsyncLocalStorage): no
 * library internals, and a library that resolves or connects later in the same opening is
 * covered too.
 */

export type Endpoint = { hostname: string; port: number };

export type GuardSettings = {
  resolve: Resolve;
  allowPrivateTargets: boolean;
  /** The opening (resolution included) must be up within this, or it fails as ETIMEDOUT. */
  timeoutMs: number;
};

/** The sockets of one connection, from its opening on (they leave the set when they close). */
export type OwnedSockets = {
  readonly sockets: ReadonlySet<Socket>;
  /** Destroys every socket still open: a connection that must go now, whatever its state. */
  destroy(): void;
};

type Opening = { address: string; sockets: Set<Socket> };

const openings = new AsyncLocalStorage<Opening>();

diagnostics.subscribe('net.client.socket', (message) => {
  const opening = openings.getStore();
  if (!opening) return;
  const { socket } = message as { socket: Socket };
  opening.sockets.add(socket);
  socket.once('close', () => opening.sockets.delete(socket));
  socket.once('connect', () => {
    const remote = socket.remoteAddress?.replace(/^::ffff:/, '');
    if (remote !== opening.address) socket.destroy(new BlockedTargetError('unchecked address'));
  });
});

/** Thrown when the attempt's time is up. */
export class DeadlineError extends Error {
  readonly code = 'ETIMEDOUT';
}

/**
 * The name resolved once and every answer checked against the private-target policy, so a name
 * that resolves inside, or rebinds to an inside address, is never connected to. Rejects with
 * BlockedTargetError (or the resolver's ENOTFOUND).
 */
async function checkedAnswers(hostname: string, resolve: Resolve, allowPrivateTargets: boolean): Promise<LookupAddress[]> {
  const family = isIP(hostname);
  const addresses = family ? [{ address: hostname, family }] : await resolve(hostname);
  if (addresses.length === 0) throw Object.assign(new Error('no address'), { code: 'ENOTFOUND' });
  if (!allowPrivateTargets && addresses.some(({ address }) => isBlockedAddress(address))) throw new BlockedTargetError(hostname);
  return addresses;
}

/** The one address a broker connection goes to: the first checked answer. */
export async function checkedAddress(hostname: string, resolve: Resolve, allowPrivateTargets: boolean): Promise<string> {
  return (await checkedAnswers(hostname, resolve, allowPrivateTargets))[0]!.address;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The `lookup` option for http(s).request, the HTTP kind's way through this layer: Node connects
 * to what it answers and nothing else, so only checked addresses (every one, for its
 * happy-eyeballs) are tried; the request's own deadline destroys its socket.
 */
export function checkedLookup(resolve: Resolve, allowPrivateTargets: boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    checkedAnswers(hostname, resolve, allowPrivateTargets).then(
      (addresses) => {
        if (options.all) return callback(null, addresses);
        const first = addresses[0]!;
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/** The name a TLS client verifies the certificate against (none for an IP literal, RFC 6066). */
export function tlsServername(hostname: string): string | undefined {
  return isIP(hostname) ? undefined : hostname;
}

/** `work` or a DeadlineError after `timeoutMs`, whichever comes first (`onTimeout` cleans up). */
export function withDeadline<T>(work: Promise<T>, timeoutMs: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new DeadlineError('attempt timed out'));
    }, timeoutMs);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Opens a connection to the checked address of `endpoint`: `open` gets the address and must hand
 * the client library that address (never the name). Resolves with the connection and its sockets;
 * rejects (every socket destroyed) on the policy, the library's failure or the deadline. A
 * connection the library completes after the deadline is closed with `close`.
 */
export async function openGuarded<C>(
  endpoint: Endpoint,
  settings: GuardSettings,
  open: (address: string) => Promise<C>,
  close: (connection: C) => unknown,
): Promise<{ connection: C; owned: OwnedSockets }> {
  const opening: Opening = { address: '', sockets: new Set() };
  const owned: OwnedSockets = {
    sockets: opening.sockets,
    destroy: () => {
      for (const socket of [...opening.sockets]) socket.destroy();
    },
  };
  let late = false;
  const connecting = (async () => {
    opening.address = await checkedAddress(endpoint.hostname, settings.resolve, settings.allowPrivateTargets);
    const connection = await openings.run(opening, () => open(opening.address));
    if (late) {
      owned.destroy();
      void Promise.resolve()
        .then(() => close(connection))
        .catch(() => undefined);
    }
    return connection;
  })();
  try {
    const connection = await withDeadline(connecting, settings.timeoutMs, () => {
      late = true;
      owned.destroy();
    });
    return { connection, owned };
  } catch (error) {
    owned.destroy();
    // The library's own rejection, after the deadline answered: nobody waits for it.
    connecting.catch(() => undefined);
    throw error;
  }
}
