import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { attachNodeBody, readJsonBody } from './body';
import { ApiError } from './errors';

const post = (body: BodyInit, contentType: string) =>
  new Request('http://localhost/api/x', { method: 'POST', body, headers: { 'content-type': contentType } });

async function statusOf(request: Request, limit = 65_536): Promise<number | 'ok'> {
  try {
    await readJsonBody(request, limit);
    return 'ok';
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
}

describe('readJsonBody: charsets and UTF-8', () => {
  it('reads UTF-8, declared or not', async () => {
    expect(await readJsonBody(post('{"nmUsuario":"ação"}', 'application/json'), 65_536)).toEqual({ nmUsuario: 'ação' });
    expect(await statusOf(post('{}', 'application/json; charset=UTF-8'))).toBe('ok');
    expect(await statusOf(post('{}', 'application/json;charset="utf-8"'))).toBe('ok');
  });

  it('refuses another declared charset with 415', async () => {
    for (const charset of ['latin1', 'ISO-8859-1', 'utf-16', 'windows-1252']) {
      expect(await statusOf(post('{}', `application/json; charset=${charset}`)), charset).toBe(415);
    }
  });

  it('refuses bytes that are not UTF-8 with 400 instead of replacing them', async () => {
    const latin1 = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe7, 0xe3, 0x22, 0x7d]); // {"a":"çã"} in Latin-1
    expect(await statusOf(post(latin1, 'application/json'))).toBe(400);
  });
});

describe('readJsonBody: limits', () => {
  it('refuses a body longer than the limit with 413, leaving the rest of the stream unread and uncancelled', async () => {
    // A stream with no end: the reader must stop at the limit. Cancelling it would destroy the
    // request under the lean server and reset the connection before the 413 goes out.
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request('http://localhost/api/x', {
      method: 'POST',
      body: endless,
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    expect(await statusOf(request)).toBe(413);
    expect(cancelled).toBe(false);
    expect(pulled).toBeLessThan(10);
    expect(request.body?.locked).toBe(false);
  });

  it('refuses a declared Content-Length over the limit before reading anything', async () => {
    const request = new Request('http://localhost/api/x', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json', 'content-length': '70000' },
    });
    expect(await statusOf(request)).toBe(413);
    expect(request.bodyUsed).toBe(false);
  });
});

describe('readJsonBody: a Node body that has all arrived (the lean server)', () => {
  /** A Node stream holding `text` in its buffer, unread, as node:http leaves a small request's body. */
  function arrivedBody(text: string) {
    const stream = Object.assign(new Readable({ read() {} }), { complete: true });
    stream.push(Buffer.from(text, 'utf8'));
    stream.push(null);
    const request = new Request('http://localhost/api/x', { method: 'POST', headers: { 'content-type': 'application/json' } });
    attachNodeBody(request, stream);
    return { request, stream };
  }

  it('reads it from the buffer, to its end', async () => {
    const { request, stream } = arrivedBody('{"nmUsuario":"ação"}');
    const ended = new Promise((resolve) => stream.once('end', resolve));
    expect(await readJsonBody(request, 65_536)).toEqual({ nmUsuario: 'ação' });
    await ended;
  });

  it('refuses it past the limit with 413; an empty one, and bytes that are not UTF-8, with 400', async () => {
    expect(await statusOf(arrivedBody('{"a":"0123456789"}').request, 8)).toBe(413);
    expect(await statusOf(arrivedBody('').request)).toBe(400); // empty: not JSON
    const latin1 = Object.assign(new Readable({ read() {} }), { complete: true });
    latin1.push(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe7, 0x22, 0x7d]));
    latin1.push(null);
    const request = new Request('http://localhost/api/x', { method: 'POST', headers: { 'content-type': 'application/json' } });
    attachNodeBody(request, latin1);
    expect(await statusOf(request)).toBe(400);
  });
});

describe('readJsonBody: a Node body still arriving (the lean server)', () => {
  /** A Node stream whose chunks arrive later, as node:http's request when the body follows its headers. */
  function arrivingBody() {
    const stream = Object.assign(new Readable({ read() {} }), { complete: false });
    const request = new Request('http://localhost/api/x', { method: 'POST', headers: { 'content-type': 'application/json' } });
    attachNodeBody(request, stream);
    return { request, stream };
  }
  const later = () => new Promise((resolve) => setTimeout(resolve, 5));

  it('waits for its chunks and reads it whole, a character split between chunks included', async () => {
    const { request, stream } = arrivingBody();
    const read = readJsonBody(request, 65_536);
    const bytes = Buffer.from('{"nmUsuario":"ação"}', 'utf8');
    stream.push(bytes.subarray(0, 16)); // "ç" is split across the two chunks
    await later();
    stream.push(bytes.subarray(16));
    stream.push(null);
    expect(await read).toEqual({ nmUsuario: 'ação' });
    expect(stream.listenerCount('data')).toBe(0);
  });

  it('refuses it with 413 as soon as the limit is passed, without waiting for the end or destroying the stream', async () => {
    const { request, stream } = arrivingBody();
    const status = statusOf(request, 8);
    stream.push(Buffer.from('{"a":"0123456789'));
    expect(await status).toBe(413);
    expect(stream.destroyed).toBe(false);
    expect(stream.listenerCount('data')).toBe(0);
  });

  it('fails, rather than answer a truncated document, when the client goes away mid-body or before it is read', async () => {
    const { request, stream } = arrivingBody();
    const read = readJsonBody(request, 65_536);
    stream.push(Buffer.from('{"a":'));
    await later();
    stream.destroy();
    await expect(read).rejects.toThrow(/ended before it was complete/);

    const gone = arrivingBody();
    gone.stream.destroy();
    await expect(readJsonBody(gone.request, 65_536)).rejects.toThrow(/ended before it was read/);
  });
});
