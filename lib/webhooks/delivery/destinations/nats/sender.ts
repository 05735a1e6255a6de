import 'server-only';
import type { ConnectionOptions } from 'node:tls';
import {
  AuthorizationError,
  connect,
  headers as natsHeaders,
  NoRespondersError,
  type NatsConnection,
  type TlsOptions,
} from '@nats-io/transport-node';
import { jetstream, JetStreamApiError } from '@nats-io/jetstream';
import type { AttemptError } from '../../contract';
import type { Resolve } from '../../checked-lookup';
import { openGuarded, tlsServername } from '../../connection/guarded';
import { ConnectionPool, POOL_DEFAULTS, type PoolSettings } from '../../connection/pool';
import { messageHeaders, poolKey, sendPooled, socketFailure } from '../broker';
import type { Credentials, OutgoingMessage, Sender, SendSettings, Sent } from '../destination';
import type { NatsTarget } from '../../../configurations/destinations/nats';

/**
 * NATS JetStream targets (issue 29): `tls://host[:port]?subject=S` (`nats://` without TLS). Each
 * message is a JetStream publish with `Nats-Msg-Id` = `webhook-id`, so the stream drops a retry of a
 * message it already stored (within its duplicate window, 2 minutes by default); it counts as
 * delivered only on the stream's acknowledgement. No stream taking the subject is `sem-rota`. One
 * connection per tenant, server and login, kept across attempts in the shared pool
 * (connection/pool.ts); the client does not reconnect by itself: a connection that closes leaves
 * the pool and the next attempt opens a fresh one.
 */
export function natsSender(options: { resolve: Resolve; pool?: PoolSettings }): Sender<NatsTarget> {
  const pool = new ConnectionPool<NatsConnection>(options.pool ?? POOL_DEFAULTS, (nc) => nc.close());

  function send(
    target: NatsTarget,
    message: OutgoingMessage,
    settings: SendSettings,
    credentials: Credentials | undefined,
    tenant: string,
  ): Promise<Sent> {
    return sendPooled(
      'nats',
      () =>
        pool.acquire(poolKey(target, '', credentials, settings), tenant, () =>
          openConnection(target, credentials, settings, options.resolve),
        ),
      (nc) => {
        const carried = natsHeaders();
        for (const [name, value] of Object.entries(messageHeaders(message))) carried.set(name, value);
        return jetstream(nc).publish(target.subject, message.body, { msgID: message.id, headers: carried, timeout: settings.timeoutMs });
      },
      settings.timeoutMs,
      natsFailure,
    );
  }

  return { send, close: () => pool.close() };
}

/**
 * The client is handed the checked address, never the name (it would resolve the name again with
 * the system resolver and try every address); over TLS the certificate is still verified against
 * the name (`servername`). It neither resolves, reconnects nor learns other servers from the
 * broker's INFO: the one checked address is all it may connect to.
 */
function openConnection(target: NatsTarget, credentials: Credentials | undefined, settings: SendSettings, resolve: Resolve) {
  const guard = { resolve, allowPrivateTargets: settings.allowPrivateTargets, timeoutMs: settings.timeoutMs };
  const servername = tlsServername(target.hostname);
  // The transport spreads these over its own TLS options (node_transport.js), `servername` included:
  // the address is what it connects to, the name what the certificate must carry.
  const tls: TlsOptions & Pick<ConnectionOptions, 'servername'> = servername ? { servername } : {};
  return openGuarded<NatsConnection>(
    target,
    guard,
    (address) =>
      connect({
        servers: `${address.includes(':') ? `[${address}]` : address}:${target.port}`,
        ...(credentials ? { user: credentials.usuario, pass: credentials.senha } : {}),
        ...(target.tls ? { tls } : {}),
        timeout: settings.timeoutMs,
        reconnect: false,
        resolve: false,
        ignoreClusterUpdates: true,
        name: 'integration-console-webhooks',
      }),
    (nc) => nc.close(),
  );
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
