import http from 'node:http';

/**
 * HTTP requests from a chosen loopback source address (127.0.0.2, 127.0.0.3, …: on Linux the whole
 * 127/8 block is local), so specs can play callers on different machines. Playwright's request
 * context cannot pick its source address; the shared e2e server trusts only 127.0.0.1 as a proxy.
 */
export type PlainResponse = { status: number; headers: http.IncomingHttpHeaders; text: string; json<T = unknown>(): T };

export function requestFrom(
  localAddress: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<PlainResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: options.method ?? 'GET', headers: options.headers, localAddress }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json: <T>() => JSON.parse(text) as T }),
      );
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

export function formBody(fields: Record<string, string>): { headers: Record<string, string>; body: string } {
  return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() };
}
