import 'server-only';
import { createHash } from 'node:crypto';
import type { AttemptError } from '../contract';
import { log, redactError } from '@/lib/log';
import { BlockedTargetError } from '../checked-lookup';
import { withDeadline } from '../connection/guarded';
import { ConnectionLimitError, type Lease } from '../connection/pool';
import type { Credentials, OutgoingMessage, SendSettings, Sent, Verdict } from './destination';
import { classify } from './http/sender';
import type { ParsedTarget } from '../../configurations/destinations/kind';

/**
 * What the broker kinds' senders share: an attempt through a pooled connection, the verdict of each
 * failure, the message's headers and the pool key (the connection itself: connection/guarded.ts and
 * connection/pool.ts).
 */

/**
 * One attempt through a pooled connection: take it from the pool (`lease`), publish on it within
 * the attempt's deadline, give it back. A connection that let an attempt time out is dropped: the
 * next attempt opens a fresh one. A failure is told in the delivery log's words (`failureOf`).
 */
export async function sendPooled<C>(
  kind: string,
  lease: () => Lease<C>,
  publish: (connection: C) => Promise<unknown>,
  timeoutMs: number,
  failureOf: (error: unknown) => AttemptError,
): Promise<Sent> {
  const startedAt = Date.now();
  let held: Lease<C> | undefined;
  try {
    held = lease();
    const current = held;
    await withDeadline(current.connection.then(publish), timeoutMs, () => current.discard());
    return sentOf(startedAt, { result: 'delivered' });
  } catch (error) {
    return sentOf(startedAt, brokerFailure(failureOf(error), error, kind));
  } finally {
    held?.release();
  }
}

/**
 * Every failure is retried on the schedule. No route (a missing exchange, queue or stream) is the
 * partner's setup refusing this message, as an HTTP 4xx is: not an outage. Everything else (the
 * broker unreachable, credentials refused, a negative acknowledgement) is counted by the circuit.
 */
export function brokerFailure(reason: AttemptError, cause?: unknown, kind?: string): Verdict {
  // The operator's only way to learn what went wrong: its type, code and first line (no secret is
  // in a client library's error text; redactError masks long digit runs anyway).
  if (reason === 'erro-interno' && cause !== undefined) log.warn('webhook.attempt_internal_error', { kind, ...redactError(cause) });
  return { result: 'retry', reason, outage: !NOT_OUTAGES.has(reason) };
}

/** The partner's setup refusing the message, the policy, or this process's own cap: not the broker being away. */
const NOT_OUTAGES = new Set<AttemptError>(['sem-rota', 'destino-bloqueado', 'limite-conexoes']);

/** The Standard Webhooks headers and the configuration's own, as message headers. */
export function messageHeaders(message: OutgoingMessage): Record<string, string> {
  const headers: Record<string, string> = { ...message.headers };
  for (const { chave, valor } of message.customHeaders) headers[chave] = valor;
  return headers;
}

/**
 * One pooled connection per broker (and its scope: a vhost), user and password (and policy: a connection opened where
 * private targets were allowed is not one where they are not). The key holds a digest, never the password.
 */
export function poolKey(target: ParsedTarget, scope: string, credentials: Credentials | undefined, settings: SendSettings): string {
  const login = credentials ? createHash('sha256').update(`${credentials.usuario}\u0000${credentials.senha}`).digest('hex') : '-';
  return [target.kind, target.tls, target.hostname, target.port, scope, login, settings.allowPrivateTargets].join('|');
}

/** A socket-level failure anywhere in an error's cause chain, in the delivery log's words; undefined if none. */
export function socketFailure(error: unknown): AttemptError | undefined {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (cause instanceof BlockedTargetError) return 'destino-bloqueado';
    if (cause instanceof ConnectionLimitError) return 'limite-conexoes';
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') {
      const reason = classify(cause);
      if (reason !== 'erro-interno') return reason;
    }
  }
  return undefined;
}

export function sentOf(startedAt: number, verdict: Verdict): Sent {
  return { startedAt, durationMs: Math.round(Date.now() - startedAt), verdict, status: null, body: null };
}
