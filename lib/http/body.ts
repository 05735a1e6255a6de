import { problems } from './errors';

/**
 * A request body as a server in front of the router hands it over: a Node stream (node:http's
 * request), `complete` once all of it has arrived (into its buffer, when nobody has read it yet).
 */
type NodeBody = AsyncIterable<Uint8Array> & { destroy(): void; complete?: boolean; read?(): Uint8Array | null };

/**
 * Bodies the lean API server (lib/api-server/serve.ts) leaves in their Node stream instead of
 * wrapping it in a web ReadableStream for the Request: that wrapping, and reading through it, cost
 * more CPU per reservation than parsing and validating its JSON. Read here only, under the same limit.
 */
const nodeBodies = new WeakMap<Request, NodeBody>();

/** The body of `request` is `body`, a Node stream, not `request.body` (which the server left empty). */
export function attachNodeBody(request: Request, body: NodeBody): void {
  nodeBodies.set(request, body);
}

/**
 * Reads a request body as text without ever holding more than `limit` bytes, whatever
 * Content-Length claims (it may be absent or wrong with chunked encoding).
 */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw problems.payloadTooLarge(limit);
  const node = nodeBodies.get(request);
  // A small body has usually all arrived, in the stream's buffer, by the time a handler reads it:
  // taken from there at once, without the async iteration below (its iterator, promises and
  // end-of-stream watcher cost more than parsing the JSON).
  if (node?.complete && node.read) return decodeUtf8(arrived(node.read(), limit));
  // Web streams are async iterable in Node; TypeScript's DOM types do not say so.
  const source = (node ?? request.body) as AsyncIterable<Uint8Array> | null;
  if (!source) return '';
  const chunks: Uint8Array[] = [];
  let received = 0;
  // Read chunk by chunk, and past the limit just stop: ending the iteration (as a for-await loop
  // left early does) would cancel a web stream or destroy a Node one, and Node then resets the
  // socket before the 413 is sent. The server discards the rest itself and closes the connection
  // after the answer (scripts/server-entry.mjs, 7). A web stream's reader lets go of it.
  const web = source instanceof ReadableStream ? (source.getReader() as ReadableStreamDefaultReader<Uint8Array>) : undefined;
  const iterator = web ? undefined : source[Symbol.asyncIterator]();
  const next = (): Promise<{ done?: boolean; value?: Uint8Array }> => (web ? web.read() : iterator!.next());
  for (;;) {
    const { done, value } = await next();
    if (done || !value) break;
    received += value.byteLength;
    if (received > limit) {
      web?.releaseLock();
      throw problems.payloadTooLarge(limit);
    }
    chunks.push(value);
  }
  return decodeUtf8(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
}

/** A whole body read at once from a stream's buffer (null: empty), within the limit. */
function arrived(bytes: Uint8Array | null, limit: number): Uint8Array {
  if (bytes !== null && bytes.byteLength > limit) throw problems.payloadTooLarge(limit);
  return bytes ?? EMPTY;
}

const EMPTY = new Uint8Array(0);

function decodeUtf8(bytes: Uint8Array): string {
  try {
    // Fatal: a byte sequence that is not UTF-8 is refused, never silently replaced by U+FFFD.
    return UTF8.decode(bytes);
  } catch {
    throw problems.invalidUtf8();
  }
}

/** One decoder: without `stream`, each decode starts afresh, so it can be shared. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The `charset` parameter of a Content-Type, lowercased and unquoted; undefined when absent. */
function charsetOf(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return match?.[1]?.toLowerCase();
}

/** Parses a JSON body; wrong media type or a charset other than UTF-8 → 415, bad JSON or bad UTF-8 → 400, oversize → 413. */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const contentType = request.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json' && !mediaType?.endsWith('+json')) throw problems.unsupportedMediaType();
  const charset = charsetOf(contentType);
  // JSON is UTF-8 (RFC 8259 §8.1): a body declared in another charset would be misread, not decoded.
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw problems.unsupportedMediaType('Send the body as application/json in UTF-8 (charset=utf-8, or no charset).');
  }
  const text = await readBodyText(request, limit);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw problems.malformedJson();
  }
}
