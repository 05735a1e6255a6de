import net from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a shared server (RabbitMQ, say) that a spec controls: `cut()`
 * drops every connection through it and refuses new ones, as a broker that went away; `restore()`
 * accepts them again on the same port. The shared server itself is never stopped.
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  /** Every byte clients sent through the proxy (a login offered to the server, say). */
  private readonly received: Buffer[] = [];
  port = 0;

  constructor(
    private readonly targetPort: number,
    private readonly targetHost = '127.0.0.1',
  ) {}

  async start(port = 0): Promise<this> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.on('data', (chunk: Buffer) => this.received.push(chunk));
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
    return this;
  }

  /** Every connection reset, and the port closed: connecting is refused until restore(). */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = server ? new Promise((resolve) => server.close(resolve)) : Promise.resolve();
    for (const socket of this.sockets) socket.resetAndDestroy();
    await closed;
  }

  /** What clients sent so far, as text (protocol bytes included). */
  clientBytes(): string {
    return Buffer.concat(this.received).toString('latin1');
  }

  async restore(): Promise<void> {
    await this.start(this.port);
  }

  async stop(): Promise<void> {
    await this.cut();
  }
}
