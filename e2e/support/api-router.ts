import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { servedByApiServer } from '@/lib/config/served-paths.mjs';

/**
 * The load balancer of an API-only deployment, for the e2e run against the lean API server
 * (E2E_API_SERVER=lean): API paths to `npm run start:api`, everything else (pages, next-auth's
 * sign-in, the reference page) to `npm start`, by the same rule operators configure
 * (lib/config/served-paths.mjs). Like a real balancer it keeps Host, appends the caller's address to
 * X-Forwarded-For and sets X-Forwarded-Host and -Proto, keeping a caller's own only when that caller
 * is itself a trusted proxy (127.0.0.1, as the servers' TRUSTED_PROXIES say). Both servers trust
 * the balancer, so they see the caller as they would without it.
 */
const TRUSTED_UPSTREAM = new Set(['127.0.0.1', '::ffff:127.0.0.1']);
export class ApiRouter {
  private readonly server: http.Server;

  constructor(
    private readonly apiServer: string,
    private readonly nextServer: string,
  ) {
    this.server = http.createServer((incoming, outgoing) => this.forward(incoming, outgoing));
    this.server.keepAliveTimeout = 65_000;
  }

  private forward(incoming: http.IncomingMessage, outgoing: http.ServerResponse) {
    const pathname = (incoming.url ?? '/').split('?')[0] ?? '/';
    const target = new URL(servedByApiServer(pathname) ? this.apiServer : this.nextServer);
    const forwardedFor = [incoming.headers['x-forwarded-for'], incoming.socket.remoteAddress].filter(Boolean).join(', ');
    const upstreamTrusted = TRUSTED_UPSTREAM.has(incoming.socket.remoteAddress ?? '');
    const forwardedHost = (upstreamTrusted && incoming.headers['x-forwarded-host']) || incoming.headers.host || '';
    const forwardedProto = (upstreamTrusted && incoming.headers['x-forwarded-proto']) || 'http';
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: {
          ...incoming.headers,
          'x-forwarded-for': forwardedFor,
          'x-forwarded-host': forwardedHost,
          'x-forwarded-proto': forwardedProto,
        },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502).end();
      else outgoing.destroy();
    });
    incoming.pipe(upstream);
  }

  async listen(port: number): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', resolve);
    });
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
