import 'server-only';
import { AuthorizationError, connect, headers as natsHeaders, NoRespondersError, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, JetStreamApiError } from '@nats-io/jetstream';
import type { AttemptError } from '../../delivery-contract';
import type { BrokerTarget } from '../../broker-target';
import type { Resolve } from '../checked-lookup';
import {
  brokerFailure,
  brokerSpanAttributes,
  checkedAddress,
  messageHeaders,
  parsedTarget,
  poolKey,
  sentOf,
  socketFailure,
  withDeadline,
} from './broker';
import type { Credentials, Destination, OutgoingMessage, SendSettings, Sent } from './destination';

/**
 * NATS JetStream targets (issue 29): `tls://host[:port]?subject=S` (`nats://` without TLS). Each
 * message is a JetStream publish with `Nats-Msg-Id` = `webhook-id`, so the stream drops a retry of a
 * message it already stored (within its duplicate window, 2 minutes by default); it counts as
 * delivered only on the stream's acknowledgement. No stream taking the subject is `sem-rota`. One
 * connection per server and login, kept across attempts; the client does not reconnect by itself:
 * a connection that closes leaves the pool and the next attempt opens a fresh one.
 */
export function natsDestination(options: { resolve: Resolve }): Destination {
  const pool = new Map<string, Promise<NatsConnection>>();

  function connectionFor(target: BrokerTarget, credentials: Credentials | undefined, settings: SendSettings): Promise<NatsConnection> {
    const key = poolKey(target, credentials, settings);
    let connection = pool.get(key);
    if (!connection) {
      const opened = openConnection(target, credentials, settings, options.resolve);
      connection = opened;
      pool.set(key, opened);
      const forget = () => {
        if (pool.get(key) === opened) pool.delete(key);
      };
      opened.then((nc) => void nc.closed().then(forget, forget), forget);
    }
    return connection;
  }

  function discard(target: BrokerTarget, credentials: Credentials | undefined, settings: SendSettings) {
    const key = poolKey(target, credentials, settings);
    const connection = pool.get(key);
    pool.delete(key);
    void connection?.then((nc) => nc.close()).catch(() => undefined);
  }

  async function send(raw: string, message: OutgoingMessage, settings: SendSettings, credentials?: Credentials): Promise<Sent> {
    const startedAt = Date.now();
    const target = parsedTarget(raw, 'nats');
    if (!target) return sentOf(startedAt, brokerFailure('erro-interno'));
    try {
      const publishing = connectionFor(target, credentials, settings).then((nc) => {
        const carried = natsHeaders();
        for (const [name, value] of Object.entries(messageHeaders(message))) carried.set(name, value);
        return jetstream(nc).publish(target.subject, message.body, { msgID: message.id, headers: carried, timeout: settings.timeoutMs });
      });
      await withDeadline(publishing, settings.timeoutMs, () => discard(target, credentials, settings));
      return sentOf(startedAt, { result: 'delivered' });
    } catch (error) {
      return sentOf(startedAt, brokerFailure(natsFailure(error)));
    }
  }

  return {
    kind: 'nats',
    accepts: (target) => /^(nats|tls):\/\//i.test(target),
    spanAttributes: (target) => brokerSpanAttributes(target, 'nats'),
    send,
    async close() {
      const open = [...pool.values()];
      pool.clear();
      await Promise.allSettled(open.map(async (connection) => (await connection).close()));
    },
  };
}

async function openConnection(
  target: BrokerTarget,
  credentials: Credentials | undefined,
  settings: SendSettings,
  resolve: Resolve,
): Promise<NatsConnection> {
  const address = await checkedAddress(target.hostname, resolve, settings.allowPrivateTargets);
  // Plain connections go to the checked address; TLS names the host, so its certificate is checked
  // against the name (the name was checked just above).
  const host = target.tls ? target.hostname : address;
  return connect({
    servers: `${host.includes(':') ? `[${host}]` : host}:${target.port}`,
    ...(credentials ? { user: credentials.usuario, pass: credentials.senha } : {}),
    ...(target.tls ? { tls: {} } : {}),
    timeout: settings.timeoutMs,
    reconnect: false,
    name: 'integration-console-webhooks',
  });
}

/** A NATS failure in the delivery log's words. */
export function natsFailure(error: unknown): AttemptError {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    // No responders on the subject: no stream captures it (the client calls it JetStreamNotEnabled).
    if (cause instanceof NoRespondersError || (cause instanceof Error && cause.name === 'JetStreamNotEnabled')) return 'sem-rota';
    if (cause instanceof AuthorizationError) return 'autenticacao-recusada';
  }
  // The stream's own refusal (storage full, a message too large…): a negative acknowledgement.
  if (error instanceof JetStreamApiError) return 'confirmacao-negativa';
  const socket = socketFailure(error);
  if (socket) return socket;
  const text = error instanceof Error ? error.message : String(error);
  if (/authoriz|authentic/i.test(text)) return 'autenticacao-recusada';
  if (/timeout|timed out/i.test(text)) return 'tempo-esgotado';
  if (/refused/i.test(text)) return 'conexao-recusada';
  if (/closed|disconnect|connection/i.test(text)) return 'erro-rede';
  return 'erro-interno';
}
