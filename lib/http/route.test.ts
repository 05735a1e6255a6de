import { afterEach, describe, expect, it } from 'vitest';
import { operations } from '@/lib/api/operations';
import { publicRoute } from './route';
import { logTo } from '@/lib/testing/hooks';

describe('the wrapper’s logging of failures', () => {
  const lines: Record<string, unknown>[] = [];
  afterEach(() => {
    logTo(undefined);
    lines.length = 0;
  });
  const capture = () => {
    delete process.env.LOG_SILENT;
    logTo({ write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  };

  it('logs a client that hung up at info, not as an error', async () => {
    capture();
    const route = publicRoute(operations.liveness, () => {
      throw new DOMException('The operation was aborted.', 'AbortError');
    });
    const controller = new AbortController();
    controller.abort();
    await route(new Request('http://localhost/api/health', { signal: controller.signal }), {});
    expect(lines.find((line) => line.event === 'api.client_aborted')).toMatchObject({ level: 'info', path: '/api/health' });
    expect(lines.some((line) => line.level === 'error')).toBe(false);
  });

  it('logs anything else unexpected as an error, with the request id', async () => {
    capture();
    const route = publicRoute(operations.liveness, () => {
      throw new Error('boom');
    });
    const response = await route(new Request('http://localhost/api/health', { headers: { 'X-Request-Id': 'abc-1' } }), {});
    expect(response.status).toBe(500);
    expect(lines.find((line) => line.event === 'api.unhandled_error')).toMatchObject({ level: 'error', requestId: 'abc-1' });
  });
});
