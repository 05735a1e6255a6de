import 'server-only';
import type { Resolve } from '../checked-lookup';
import type { PoolSettings } from '../connection/pool';
import { amqpSender } from './amqp/sender';
import type { Route, Sender } from './destination';
import { httpSender } from './http/sender';
import { kindOf, type DestinationKind } from '../../configurations/destinations/kinds';
import { natsSender } from './nats/sender';

/**
 * The senders a process delivers with, one per kind of kinds.ts (issue 43). A target no kind
 * takes, or that its kind cannot parse, has no route: its attempts fail by name (`erro-interno`),
 * as any other unsendable attempt.
 */
export type Destinations = {
  /** The target parsed once by its kind and bound to the kind's sender; undefined when no kind takes it. */
  route(target: string): Route | undefined;
  /** Closes every kind's pooled connections (shutdown). */
  close(): Promise<void>;
};

export function registerDestinations(options: { resolve: Resolve; pool?: PoolSettings }): Destinations {
  const senders: Record<DestinationKind, Sender<never>> = {
    http: httpSender(options),
    amqp: amqpSender(options),
    nats: natsSender(options),
  };
  return {
    route(raw) {
      const found = kindOf(raw);
      const target = found?.descriptor.parse(raw);
      if (!found || !target) return undefined;
      const sender = senders[found.descriptor.kind as DestinationKind] as unknown as Sender;
      return {
        kind: found.descriptor.kind,
        spanAttributes: found.descriptor.spanAttributes(target),
        send: (message, settings, credentials, tenant = '') => sender.send(target, message, settings, credentials, tenant),
      };
    },
    close: async () => void (await Promise.allSettled(Object.values(senders).map((sender) => sender.close()))),
  };
}

export type { Credentials, OutgoingMessage, Route, Sent, SendSettings, Verdict } from './destination';
