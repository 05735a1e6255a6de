import { afterEach, describe, expect, it } from 'vitest';
import { log, outsideRequest, setLogDestinationForTests, withRequestId } from '@/lib/log';

describe('request ids in log lines', () => {
  const lines: Record<string, unknown>[] = [];
  const silent = process.env.LOG_SILENT;
  afterEach(() => {
    process.env.LOG_SILENT = silent;
    setLogDestinationForTests(undefined);
    lines.length = 0;
  });

  it('work a request starts but runs outside it carries no request id, however deep', async () => {
    delete process.env.LOG_SILENT;
    setLogDestinationForTests({ write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    let background: Promise<void> = Promise.resolve();
    withRequestId('req-1', () => {
      log.info('inside');
      background = outsideRequest(async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        log.info('background');
      });
    });
    await background;
    expect(lines.find((line) => line.event === 'inside')).toMatchObject({ requestId: 'req-1' });
    const backgroundLine = lines.find((line) => line.event === 'background');
    expect(backgroundLine).toBeDefined();
    expect(backgroundLine).not.toHaveProperty('requestId');
  });
});
