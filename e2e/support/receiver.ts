import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real webhook receiver on 127.0.0.1 for delivery specs: it records every request (headers, raw
 * body, arrival time) by path and answers what the spec scripted for that path, in order (the last
 * answer repeats). Nothing is mocked: the server under test connects to it over TCP.
 */
export type Received = { path: string; headers: http.IncomingHttpHeaders; body: string; at: number; answered?: number };
/** `hang`: read the request and never answer (a receiver that accepts connections and hangs). */
export type Answer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number; hang?: true };

export class Receiver {
  readonly received: Received[] = [];
  private readonly scripts = new Map<string, Answer[]>();
  private readonly deciders = new Map<string, (request: Received) => Answer>();
  private readonly server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const received: Received = { path, headers: request.headers, body, at: Date.now() };
      this.received.push(received);
      const script = this.scripts.get(path) ?? [];
      const answer = this.deciders.get(path)?.(received) ?? (script.length > 1 ? script.shift() : script[0]) ?? { status: 204 };
      received.answered = answer.hang ? undefined : answer.status;
      if (answer.hang) return;
      const reply = () => {
        if (!response.destroyed) response.writeHead(answer.status, answer.headers).end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs);
      else reply();
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** The answers for `path`, in order; the last one repeats. */
  script(path: string, ...answers: Answer[]): void {
    this.scripts.set(path, answers);
  }

  /** Answers for `path` decided request by request (a receiver failing at random, say). */
  decide(path: string, decider: (request: Received) => Answer): void {
    this.deciders.set(path, decider);
  }

  at(path: string): Received[] {
    return this.received.filter((request) => request.path === path);
  }

  /** The distinct webhook-ids `path` received. */
  ids(path: string): Set<string> {
    return new Set(this.at(path).map((request) => String(request.headers['webhook-id'])));
  }

  /** Waits until `path` got `count` requests (or fails after `timeoutMs`). */
  async waitFor(path: string, count: number, timeoutMs = 10_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.at(path).length < count) {
      if (Date.now() > deadline) throw new Error(`receiver: ${path} got ${this.at(path).length} of ${count} requests`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return this.at(path);
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
