import type { Attributes } from '@opentelemetry/api';
import type { AttemptError } from '../contract';
import type { ParsedTarget } from '../../configurations/destinations/kind';

/**
 * The seam between the delivery engine and where a message goes (issue 28, after Outpost's
 * destination providers). The worker, retry policy, circuit breaker, spans, metrics and log know
 * only a Route: a target parsed once by its kind's descriptor (kind.ts) and bound to the kind's
 * sender, which sends one signed message there and classifies what happened.
 */

/** Why a configuration stops receiving, when one attempt says so at once (the receiver said it is gone). */
export type DisableReason = 'receptor-410';

/** What one attempt means, in the engine's words. */
export type Verdict =
  | { result: 'delivered' }
  /**
   * Try again on the schedule. `outage`: the destination could not be reached, or no request could
   * be made (counted by the circuit breaker), rather than an answer refusing this message.
   */
  | { result: 'retry'; reason: AttemptError; outage: boolean; retryAfterSeconds?: number }
  /** Never again: the delivery fails now; with `disable`, the configuration is switched off too. */
  | { result: 'permanent'; reason: AttemptError; disable?: DisableReason };

/** One attempt as the destination saw it. */
export type Sent = {
  startedAt: number;
  durationMs: number;
  verdict: Verdict;
  /** The receiver's own status code, where the kind has one (HTTP). */
  status: number | null;
  /** The start of the receiver's answer (at most 1 KiB), where there is one. */
  body: string | null;
};

/**
 * The message of one attempt, signed (Standard Webhooks): the same body and headers whatever the
 * kind; HTTP sends them as request headers, a broker as message headers.
 */
export type OutgoingMessage = {
  /** `webhook-id`: the delivery's id, the same on every attempt (receivers deduplicate on it). */
  id: string;
  body: string;
  /** content-type, webhook-id, webhook-timestamp, webhook-signature, user-agent. */
  headers: Readonly<Record<string, string>>;
  /** The configuration's own headers (never one of `headers`' names). */
  customHeaders: readonly { chave: string; valor: string }[];
};

export type SendSettings = {
  /** The attempt must be confirmed within this, or it fails as `tempo-esgotado`. */
  timeoutMs: number;
  /** Development only: loopback and private addresses may be targets. */
  allowPrivateTargets: boolean;
};

/** The user and password a broker target is reached with (the configuration's `credenciais`), if any. */
export type Credentials = { usuario: string; senha: string } | null;

/** A kind's sender (its folder's `sender.ts`): one attempt to a target its descriptor parsed. */
export interface Sender<T extends ParsedTarget = ParsedTarget> {
  /**
   * Sends one attempt; resolves (never rejects) with its verdict, within settings.timeoutMs.
   * `credentials`: a broker kind's login, opened for this attempt only (HTTP has none).
   * `tenant`: whose attempt it is (a broker kind's pooled connections are the tenant's own, capped per tenant).
   */
  send(target: T, message: OutgoingMessage, settings: SendSettings, credentials: Credentials | undefined, tenant: string): Promise<Sent>;
  /** Closes pooled connections (shutdown). */
  close(): Promise<void>;
}

/** One attempt's destination: its target parsed once by its kind, bound to the kind's sender. */
export type Route = {
  /** The kind's stable name: metrics, spans and the log say it. */
  kind: string;
  /** Where the attempt goes, for its span (the descriptor's words): never a path, query or credential. */
  spanAttributes: Attributes;
  send(message: OutgoingMessage, settings: SendSettings, credentials?: Credentials, tenant?: string): Promise<Sent>;
};
