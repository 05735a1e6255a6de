import 'server-only';
import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import type { AttemptError } from '../../contract';
import type { Resolve } from '../../checked-lookup';
import { openGuarded, tlsServername } from '../../connection/guarded';
import { ConnectionPool, POOL_DEFAULTS, type PoolSettings } from '../../connection/pool';
import { messageHeaders, poolKey, sendPooled, socketFailure } from '../broker';
import type { Credentials, OutgoingMessage, Sender, SendSettings, Sent } from '../destination';
import type { AmqpTarget } from '../../../configurations/destinations/amqp';

/**
 * RabbitMQ (AMQP 0-9-1) targets (issue 29): `amqps://host[:port]/vhost?exchange=E&routingKey=K`.
 * Each message is published persistent and mandatory on a confirm channel: it counts as delivered
 * only when the broker confirms it, and a message the exchange routes to no queue comes back
 * (basic.return, before its confirm) as `sem-rota`. One connection per tenant, broker and login,
 * kept across attempts in the shared pool (connection/pool.ts), with a channel per exchange (a
 * missing exchange closes only its own channel); whatever closes is dropped from the pool and
 * opened again by the next attempt.
 */
const HEARTBEAT_SECONDS = 10;

/** One pooled connection: the AMQP connection and its confirm channels, one per exchange. */
type Pooled = {
  model: ChannelModel;
  channels: Map<string, Promise<PooledChannel>>;
};

type PooledChannel = {
  channel: ConfirmChannel;
  /** Message ids the broker returned unrouted, until their confirm arrives. */
  returned: Set<string>;
  /** Why the channel closed, once it has. */
  closedBy?: unknown;
};

export function amqpSender(options: { resolve: Resolve; pool?: PoolSettings }): Sender<AmqpTarget> {
  const pool = new ConnectionPool<Pooled>(options.pool ?? POOL_DEFAULTS, (pooled) => pooled.model.close());

  function channelFor(pooled: Pooled, exchange: string): Promise<PooledChannel> {
    let channel = pooled.channels.get(exchange);
    if (!channel) {
      channel = pooled.model.createConfirmChannel().then((opened) => {
        const entry: PooledChannel = { channel: opened, returned: new Set() };
        opened.setMaxListeners(0);
        opened.on('return', (message: { properties: { messageId?: string } }) => {
          if (message.properties.messageId) entry.returned.add(message.properties.messageId);
        });
        const forget = (error?: unknown) => {
          entry.closedBy ??= error ?? new Error('channel closed');
          if (pooled.channels.get(exchange) === channel) pooled.channels.delete(exchange);
        };
        opened.on('error', forget);
        opened.on('close', () => forget());
        return entry;
      });
      pooled.channels.set(exchange, channel);
      channel.catch(() => {
        if (pooled.channels.get(exchange) === channel) pooled.channels.delete(exchange);
      });
    }
    return channel;
  }

  function send(
    target: AmqpTarget,
    message: OutgoingMessage,
    settings: SendSettings,
    credentials: Credentials | undefined,
    tenant: string,
  ): Promise<Sent> {
    return sendPooled(
      'amqp',
      () =>
        pool.acquire(poolKey(target, target.vhost, credentials, settings), tenant, () =>
          openConnection(target, credentials, settings, options.resolve),
        ),
      (pooled) => channelFor(pooled, target.exchange).then((channel) => publish(channel, target, message)),
      settings.timeoutMs,
      amqpFailure,
    );
  }

  return { send, close: () => pool.close() };
}

function openConnection(target: AmqpTarget, credentials: Credentials | undefined, settings: SendSettings, resolve: Resolve) {
  const guard = { resolve, allowPrivateTargets: settings.allowPrivateTargets, timeoutMs: settings.timeoutMs };
  return openGuarded<Pooled>(
    target,
    guard,
    async (address) => {
      const servername = tlsServername(target.hostname);
      const model = await amqp.connect(
        {
          protocol: target.tls ? 'amqps' : 'amqp',
          hostname: address,
          port: target.port,
          // RabbitMQ's own default login where the configuration has none.
          username: credentials?.usuario ?? 'guest',
          password: credentials?.senha ?? 'guest',
          vhost: target.vhost,
          heartbeat: HEARTBEAT_SECONDS,
        },
        // The checked address is connected to; TLS still verifies the certificate against the name.
        target.tls && servername ? { servername } : {},
      );
      // A connection error is followed by its close, which the pool watches (the sockets close).
      model.on('error', () => undefined);
      return { model, channels: new Map() };
    },
    (pooled) => pooled.model.close(),
  );
}

/** Publishes and waits for the broker's confirm; rejects with why it was not delivered. */
function publish(pooled: PooledChannel, target: AmqpTarget, message: OutgoingMessage): Promise<void> {
  const { channel } = pooled;
  return new Promise<void>((resolve, reject) => {
    const asError = (reason: unknown) => (reason instanceof Error ? reason : new Error(String(reason)));
    if (pooled.closedBy) return reject(asError(pooled.closedBy));
    const onClose = (error?: unknown) => reject(asError(error ?? pooled.closedBy ?? 'channel closed'));
    channel.once('error', onClose);
    channel.once('close', onClose);
    const done = () => {
      channel.off('error', onClose);
      channel.off('close', onClose);
    };
    try {
      channel.publish(
        target.exchange,
        target.routingKey,
        Buffer.from(message.body),
        {
          persistent: true,
          mandatory: true,
          messageId: message.id,
          contentType: 'application/json',
          timestamp: Math.floor(Date.now() / 1000),
          headers: messageHeaders(message),
        },
        (error: unknown) => {
          done();
          // amqplib calls back 'message nacked' for the broker's negative acknowledgement, and
          // 'channel closed' for every publish still unconfirmed when the channel closes (a cut
          // connection): only the first is the broker refusing the message.
          if (error) return reject(isNack(error) ? new NackError() : asError(pooled.closedBy ?? error));
          // An unroutable message is returned before it is confirmed.
          if (pooled.returned.delete(message.id)) return reject(new NoRouteError());
          resolve();
        },
      );
    } catch (error) {
      done();
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

class NackError extends Error {}
const isNack = (error: unknown) => error instanceof Error && error.message === 'message nacked';
class NoRouteError extends Error {}

/** An AMQP failure in the delivery log's words. */
export function amqpFailure(error: unknown): AttemptError {
  if (error instanceof NoRouteError) return 'sem-rota';
  if (error instanceof NackError) return 'confirmacao-negativa';
  const socket = socketFailure(error);
  if (socket) return socket;
  const text = error instanceof Error ? error.message : String(error);
  // Connection.close 403 (bad login) or 530 (no access to the vhost); channel 403 (no write permission).
  // A vhost that does not exist, or that the login may not use, closes the connection in answer
  // to connection.open: amqplib says it expected open-ok and got a close.
  if (/Expected ConnectionOpenOk; got <ConnectionClose/i.test(text)) return 'autenticacao-recusada';
  if (/\b(403|530)\b|ACCESS[-_]REFUSED|NOT[-_]ALLOWED|ACCESS_REFUSED/i.test(text)) return 'autenticacao-recusada';
  // Channel 404: the exchange does not exist.
  if (/\b404\b|NOT[-_]FOUND/i.test(text)) return 'sem-rota';
  // The broker went away mid-publish (connection or channel closed without a reply code of its own;
  // amqplib's own words: 'channel closed', 'Unexpected close', 'Channel ended, …').
  if (/\bclos(e|ed|ing)\b|ended|socket|heartbeat/i.test(text)) return 'erro-rede';
  return 'erro-interno';
}
