import { describe, expect, it } from 'vitest';
import { readJsonBody } from './body';
import { ApiError } from './errors';

const post = (body: BodyInit, contentType: string) =>
  new Request('http://localhost/api/x', { method: 'POST', body, headers: { 'content-type': contentType } });

async function statusOf(request: Request): Promise<number | 'ok'> {
  try {
    await readJsonBody(request, 65_536);
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
