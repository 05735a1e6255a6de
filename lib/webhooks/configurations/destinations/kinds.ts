import { amqpKind } from './amqp';
import { httpKind } from './http';
import type { KindDescriptor, KindScheme, ParsedTarget } from './kind';
import { natsKind } from './nats';
import { schemeOf } from './target-url';

/**
 * The destination kinds, listed once (issue 43). Pure: the URL policy, the contract, the console's
 * picker and the delivery engine read this list; adding a kind is its folder and its line here
 * (and its sender's in index.ts, its messages in lib/i18n/messages/).
 */
export const KINDS = [httpKind, amqpKind, natsKind] as const;

export type DestinationKind = (typeof KINDS)[number]['kind'];

/** Every descriptor with its own target type erased, for code that handles any kind. */
const ANY_KINDS: readonly KindDescriptor[] = KINDS;

/** The kind and scheme a target URL names, by its scheme; undefined for a scheme no kind has. */
export function kindOf(raw: string): { descriptor: KindDescriptor; scheme: KindScheme } | undefined {
  const scheme = schemeOf(raw);
  for (const descriptor of ANY_KINDS) {
    const match = descriptor.schemes.find((candidate) => candidate.scheme === scheme);
    if (match) return { descriptor, scheme: match };
  }
  return undefined;
}

/** The descriptor of a kind, by name. */
export function descriptorOf(kind: DestinationKind): KindDescriptor {
  return ANY_KINDS.find((descriptor) => descriptor.kind === kind)!;
}

/** A target parsed by its kind's descriptor (once per attempt), or undefined. */
export function parseTarget(raw: string): ParsedTarget | undefined {
  return kindOf(raw)?.descriptor.parse(raw);
}

/** The kinds reached with the configuration's `credenciais`. */
export const BROKER_KINDS: readonly KindDescriptor[] = ANY_KINDS.filter((descriptor) => descriptor.broker);

/** The brokers' first (TLS) schemes as the contract and refusals name them: `amqps://, tls://`. */
export const BROKER_SCHEMES_TEXT = BROKER_KINDS.map((kind) => `${kind.schemes[0]!.scheme}//`).join(', ');
