import 'server-only';
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { Attributes } from '@opentelemetry/api';
import type { AttemptError } from '../../delivery-contract';
import { parseBrokerTarget, type BrokerKind, type BrokerTarget } from '../../broker-target';
import { BlockedTargetError, isBlockedAddress, type Resolve } from '../checked-lookup';
import type { Credentials, OutgoingMessage, SendSettings, Sent, Verdict } from './destination';
import { classify } from './http';

/**
 * What the broker kinds (amqp.ts, nats.ts) share: the verdict of each failure, the message's
 * headers, the pool key, the connect-time private-address check and the attempt's deadline.
 */

/**
 * Every failure is retried on the schedule. No route (a missing exchange, queue or stream) is the
 * partner's setup refusing this message, as an HTTP 4xx is: not an outage. Everything else (the
 * broker unreachable, credentials refused, a negative acknowledgement) is counted by the circuit.
 */
export function brokerFailure(reason: AttemptError): Verdict {
  return { result: 'retry', reason, outage: reason !== 'sem-rota' && reason !== 'destino-bloqueado' };
}

/** The Standard Webhooks headers and the configuration's own, as message headers. */
export function messageHeaders(message: OutgoingMessage): Record<string, string> {
  const headers: Record<string, string> = { ...message.headers };
  for (const { chave, valor } of message.customHeaders) headers[chave] = valor;
  return headers;
}

/**
 * One pooled connection per broker, user and password (and policy: a connection opened where
 * private targets were allowed is not one where they are not). The key holds a digest, never the password.
 */
export function poolKey(target: BrokerTarget, credentials: Credentials | undefined, settings: SendSettings): string {
  const login = credentials ? createHash('sha256').update(`${credentials.usuario}\u0000${credentials.senha}`).digest('hex') : '-';
  return [target.kind, target.tls, target.hostname, target.port, target.vhost, login, settings.allowPrivateTargets].join('|');
}

export function parsedTarget(raw: string, kind: BrokerKind): BrokerTarget | undefined {
  const target = parseBrokerTarget(raw);
  return target?.kind === kind ? target : undefined;
}

export function brokerSpanAttributes(raw: string, system: string): Attributes {
  const target = parseBrokerTarget(raw);
  if (!target) return {};
  return {
    'messaging.system': system,
    'messaging.operation.name': 'publish',
    'messaging.destination.name': target.kind === 'nats' ? target.subject : target.exchange || '(default)',
    'server.address': target.hostname,
    'server.port': target.port,
  };
}

/**
 * The address to connect to: the broker's name resolved here and every address checked against the
 * private-target policy (as checked-lookup.ts does for HTTP), so a name that resolves inside, or
 * rebinds to an inside address, is never connected to. Rejects with BlockedTargetError.
 */
export async function checkedAddress(hostname: string, resolve: Resolve, allowPrivateTargets: boolean): Promise<string> {
  const addresses = isIP(hostname) ? [{ address: hostname }] : await resolve(hostname);
  if (addresses.length === 0) throw Object.assign(new Error('no address'), { code: 'ENOTFOUND' });
  if (!allowPrivateTargets && addresses.some(({ address }) => isBlockedAddress(address))) throw new BlockedTargetError(hostname);
  return addresses[0]!.address;
}

/** Thrown by `withDeadline` when the attempt's time is up. */
export class DeadlineError extends Error {
  readonly code = 'ETIMEDOUT';
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

/** A socket-level failure anywhere in an error's cause chain, in the delivery log's words; undefined if none. */
export function socketFailure(error: unknown): AttemptError | undefined {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (cause instanceof BlockedTargetError) return 'destino-bloqueado';
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
