import type { Readable } from 'node:stream';
import { problems } from './errors';

/**
 * A request body as a server in front of the router hands it over: a Node stream (node:http's
 * request), `complete` once all of it has arrived (into its buffer, when nobody has read it yet).
 */
type NodeBody = Readable & { complete?: boolean };

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
  // taken from there at once, without waiting for the stream's events (arriving, below).
  if (node?.complete) return decodeUtf8(arrived(node.read() as Uint8Array | null, limit));
  if (node) return decodeUtf8(await arriving(node, limit));
  if (!request.body) return '';
  // Read chunk by chunk, and past the limit just stop: cancelling the stream would make Node reset
  // the socket before the 413 is sent. The server discards the rest itself and closes the
  // connection after the answer (scripts/server-entry.mjs, 7); the reader lets go of the stream.
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      reader.releaseLock();
      throw problems.payloadTooLarge(limit);
    }
    chunks.push(value);
  }
  return decodeUtf8(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
}

/**
 * The rest of a Node body, collected from its events as it arrives. Not an async iteration: its
 * iterator, promise per chunk and end-of-stream watcher cost more than the JSON's parse and
 * validation. Past the limit it stops listening and refuses; the stream is neither destroyed nor
 * paused, so the rest flows to nowhere and the server closes the connection after the 413 (as
 * above). A body cut short (the client went away) is an error, never a truncated document.
 */
function arriving(node: NodeBody, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    // Gone already (the client went away before the handler read): no event would come.
    if (node.destroyed || node.readableEnded) return reject(new Error('the request body ended before it was read'));
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = () => {
      node.off('data', onData);
      node.off('end', onEnd);
      node.off('error', onError);
      node.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received <= limit) return void chunks.push(chunk);
      stop();
      reject(problems.payloadTooLarge(limit));
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onClose = () => onError(new Error('the request body ended before it was complete'));
    node.on('data', onData);
    node.on('end', onEnd);
    node.on('error', onError);
    node.on('close', onClose);
  });
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
