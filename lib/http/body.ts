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
      await reader.cancel().catch(() => undefined);
      throw problems.payloadTooLarge(limit);
    }
    chunks.push(value);
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
}

/** Parses a JSON body; wrong media type → 415, bad JSON → 400, oversize → 413. */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const contentType = request.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json' && !mediaType?.endsWith('+json')) throw problems.unsupportedMediaType();
  const text = await readBodyText(request, limit);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw problems.malformedJson();
  }
}
