import { problems } from './errors';

/**
 * Reads a request body as text without ever holding more than `limit` bytes, whatever
 * Content-Length claims (it may be absent or wrong with chunked encoding).
 */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw problems.payloadTooLarge(limit);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      // Stop reading, but leave the rest alone: cancelling the stream destroys the request, and
      // Node then resets its socket before the 413 is sent. The server discards the rest itself and
      // closes the connection after the answer (scripts/server-entry.mjs, 7).
      reader.releaseLock();
      throw problems.payloadTooLarge(limit);
    }
    chunks.push(value);
  }
  try {
    // Fatal: a byte sequence that is not UTF-8 is refused, never silently replaced by U+FFFD.
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw problems.invalidUtf8();
  }
}

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
