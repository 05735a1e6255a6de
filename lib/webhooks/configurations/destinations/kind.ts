import type { Attributes } from '@opentelemetry/api';
import type { MessageKey } from '@/lib/i18n';

/**
 * What a destination kind is (issue 43, after Hookdeck Outpost's destregistry): a folder,
 * `destinations/<kind>/`, with its descriptor (this type, pure: the URL policy, the contract's
 * description, the console's picker and help, the spans read it) and its sender (server only,
 * `sender.ts`). The kinds are listed once, in kinds.ts; the senders are registered in index.ts.
 */

/** One of a kind's URL schemes (`https:`), with or without TLS. */
export type KindScheme = { scheme: string; tls: boolean; defaultPort: number };

/** A target parsed once per attempt (descriptor.parse) and handed to the sender as it is. */
export type ParsedTarget = {
  kind: string;
  tls: boolean;
  /** Canonical host (WHATWG, as for https): IPv6 without brackets. */
  hostname: string;
  port: number;
};

/** Why the destination part of a target (its path and query) is wrong. */
export type DestinationProblem = 'urlBrokerDestination';

export interface KindDescriptor<T extends ParsedTarget = ParsedTarget> {
  /** Stable name: the picker, metrics, spans and the log say it. */
  readonly kind: T['kind'];
  /** Its schemes, the TLS one first (what the console's picker starts a URL with). */
  readonly schemes: readonly KindScheme[];
  /** A broker is reached with the configuration's `credenciais`; a kind that is not takes none. */
  readonly broker: boolean;
  /** Its name in the console's kind picker. */
  readonly labelKey: MessageKey;
  /** The URL field's help (its sentences, in order), where plain connections are allowed or not. */
  helpKeys(plainAllowed: boolean): readonly MessageKey[];
  /** Its target in the contract's description of `url` (OpenAPI). */
  readonly urlDescription: string;
  /**
   * The failure reasons this kind gives beyond every kind's: each an AttemptError with its messages
   * (kinds.test.ts checks it; the contract imports this list, so it cannot import the contract).
   */
  readonly failures: readonly string[];
  /** Those reasons in the contract's description of an attempt's `erro` (OpenAPI). */
  readonly failuresDescription: string;
  /** A broker: how it is reached without `credenciais`, in the contract's description. */
  readonly withoutCredentials?: string;
  /** Where the path and query are wrong for this kind (a broker's destination), else undefined. */
  destinationProblem(url: URL): DestinationProblem | undefined;
  /** The target's parts, or undefined when it is not this kind's (or is broken). */
  parse(raw: string): T | undefined;
  /** Where the attempt goes, for its span: never a path's secret, a query's or a credential. */
  spanAttributes(target: T): Attributes;
  /** What else tells two connections apart beyond host, port and login (a vhost); none by default. */
  connectionScope?(target: T): string;
}
