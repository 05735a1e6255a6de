import type http from 'node:http';

/**
 * The Request the lean API server hands the router, made from node:http's request without undici.
 * A standard Request copies every header into a Headers (validating each name and value again, as
 * Node's parser already has) and parses its URL, and that cost about a tenth of a reservation's CPU
 * on the lean path. The router and the wrapper read a request's `method`, `url`, `headers` (get,
 * has, iteration) and `signal`; its body stays in the Node stream (lib/http/body.ts). So this one
 * reads the headers where Node put them, and answers those the way a Request would: same values
 * (Node has already joined repeated headers as Headers would, and the cookie header with `; `),
 * same normalised URL, the same refusals (a Host that is not a host name, a forbidden method).
 */

/** Methods a Request refuses (fetch's forbidden methods): answered as a malformed request, as before. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** Never aborted: a lean request's handlers run to their end whether or not the caller waits (as with the Request before). */
const NOT_ABORTED = new AbortController().signal;

/** A read-only Headers over node:http's `incoming.headers` (lowercase names, repeated values already joined). */
export class IncomingHeaders {
  constructor(private readonly raw: http.IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }

  getSetCookie(): string[] {
    const value = this.raw['set-cookie'];
    return value === undefined ? [] : [...value];
  }

  /** In name order, each Set-Cookie apart, as a Headers iterates. */
  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.raw).sort()) {
      if (name === 'set-cookie') for (const cookie of this.getSetCookie()) yield [name, cookie];
      else {
        const value = this.get(name);
        if (value !== null) yield [name, value];
      }
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(callback: (value: string, name: string, parent: Headers) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this as unknown as Headers);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/** The parts of a Request the API's router and wrapper use, and all a lean request has. */
export class IncomingRequest {
  readonly headers: Headers;
  readonly url: string;
  readonly signal = NOT_ABORTED;
  readonly body = null;
  /** The path, from the URL parsed here (lib/http/request-path.ts reads it instead of parsing again). */
  readonly pathname: string;

  constructor(
    incoming: http.IncomingMessage,
    readonly method: string,
  ) {
    if (FORBIDDEN_METHODS.has(method)) throw new TypeError(`'${method}' HTTP method is unsupported.`);
    const base = `http://${incoming.headers.host ?? 'localhost'}`;
    const target = incoming.url ?? '/';
    // An origin-form target ('/path?query') joins the base as it is; anything else ('//x', an
    // absolute URL, '*') is resolved against it. Throws for a Host that is not a host name.
    const url = target.startsWith('/') && !target.startsWith('//') ? new URL(base + target) : new URL(target, base);
    this.url = url.href;
    this.pathname = url.pathname;
    this.headers = new IncomingHeaders(incoming.headers) as unknown as Headers;
  }
}

/** `incoming` as the Request the router takes (only the parts above exist: see IncomingRequest). */
export function requestOf(incoming: http.IncomingMessage): Request {
  return new IncomingRequest(incoming, incoming.method ?? 'GET') as unknown as Request;
}
