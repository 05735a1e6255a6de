import net from 'node:net';

/**
 * A TCP server on loopback addresses for specs that counts the connections it accepted and the
 * ones still open, seen from its side: a client that leaks a socket shows here, whatever the
 * client believes. What it does with a connection:
 * - `silent`: accepts and says nothing (a NATS "server" that never sends INFO);
 * - `drip`: answers an AMQP protocol header with the start of a Connection.Start frame, one byte
 *   at a time (the handshake never completes, though bytes keep coming);
 * - `{ proxyTo: port }`: forwards to 127.0.0.1:port (the real RabbitMQ or NATS).
 * One server may listen on several addresses (same port), each counted on its own.
 */
export type Behaviour = 'silent' | 'drip' | { proxyTo: number };

const DRIP_INTERVAL_MS = 50;

export class CountingServer {
  private readonly servers: net.Server[] = [];
  private readonly sockets = new Set<net.Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Connections accepted, per local address. */
  readonly accepted = new Map<string, number>();
  port = 0;

  constructor(private readonly behaviour: Behaviour) {}

  /** Listens on each address, on one port (a free one unless given). */
  async start(addresses: readonly string[], port = 0): Promise<this> {
    for (const address of addresses) {
      const server = net.createServer((socket) => this.accept(socket, address));
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(this.port || port, address, resolve);
      });
      this.port = (server.address() as net.AddressInfo).port;
      this.servers.push(server);
    }
    return this;
  }

  /** Connections open now (every address). */
  get open(): number {
    return this.sockets.size;
  }

  acceptedAt(address: string): number {
    return this.accepted.get(address) ?? 0;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    for (const socket of this.sockets) socket.destroy();
    await Promise.all(this.servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }

  private accept(socket: net.Socket, address: string) {
    this.accepted.set(address, this.acceptedAt(address) + 1);
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => this.sockets.delete(socket));
    const { behaviour } = this;
    // Read and drop what the client sends: a paused socket would never see the client's FIN.
    if (behaviour === 'silent') return void socket.resume();
    if (behaviour === 'drip') {
      socket.once('data', () => {
        // A method frame on channel 0 announcing a 1000-byte payload: the client waits for all of it.
        const frame = Buffer.alloc(7 + 1000 + 1);
        frame.writeUInt8(1, 0);
        frame.writeUInt16BE(0, 1);
        frame.writeUInt32BE(1000, 3);
        frame.writeUInt16BE(10, 7); // connection
        frame.writeUInt16BE(10, 9); // start
        let sent = 0;
        const timer = setInterval(() => {
          if (socket.destroyed || sent >= frame.length) return clearInterval(timer);
          socket.write(frame.subarray(sent, ++sent));
        }, DRIP_INTERVAL_MS);
        this.timers.add(timer);
        socket.on('close', () => clearInterval(timer));
      });
      return;
    }
    const upstream = net.connect(behaviour.proxyTo, '127.0.0.1');
    upstream.on('error', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
    socket.pipe(upstream);
    upstream.pipe(socket);
  }
}
