import 'server-only';
import type { Resolve } from '../checked-lookup';
import type { PoolSettings } from '../connection/pool';
import type { Destination } from './destination';
import { amqpDestination } from './amqp';
import { httpDestination } from './http';
import { natsDestination } from './nats';

/**
 * The destination kinds a process delivers to, registered here once each (issue 28). A target no
 * kind accepts fails its attempts by name (`erro-interno`), as any other unsendable attempt.
 */
export type Destinations = {
  forTarget(target: string): Destination | undefined;
  /** Closes every kind's pooled connections (shutdown). */
  close(): Promise<void>;
};

export function registerDestinations(options: { resolve: Resolve; pool?: PoolSettings }): Destinations {
  const kinds: Destination[] = [httpDestination(options), amqpDestination(options), natsDestination(options)];
  return {
    forTarget: (target) => kinds.find((kind) => kind.accepts(target)),
    close: async () => void (await Promise.allSettled(kinds.map((kind) => kind.close()))),
  };
}

export type { Credentials, Destination, OutgoingMessage, Sent, SendSettings, Verdict } from './destination';
