import { afterEach, describe, expect, it } from 'vitest';
import { log, outsideRequest, withRequestId } from '@/lib/log';
import { logTo } from '@/lib/testing/hooks';

describe('request ids in log lines', () => {
  const lines: Record<string, unknown>[] = [];
  const silent = process.env.LOG_SILENT;
  afterEach(() => {
    process.env.LOG_SILENT = silent;
    logTo(undefined);
    lines.length = 0;
  });

  it('work a request starts but runs outside it carries no request id, however deep', async () => {
    delete process.env.LOG_SILENT;
    logTo({ write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
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

describe('redaction in log lines', () => {
  const lines: Record<string, unknown>[] = [];
  const silent = process.env.LOG_SILENT;
  afterEach(() => {
    process.env.LOG_SILENT = silent;
    logTo(undefined);
    lines.length = 0;
  });

  it('censors sensitive keys at the top, one level down and in custom headers, leaving the caller’s object as it was', () => {
    delete process.env.LOG_SILENT;
    logTo({ write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const nested = { token: 'ABCDEF0123456789', status: 200 };
    const headers = [{ chave: 'X-Api-Key', valor: 'segredo-4242' }];
    const fields = { status: 200, cdPessoaFisica: 987654321, nested, headers } as unknown as Record<string, string>;
    log.info('redaction', fields);
    expect(lines[0]).toMatchObject({
      event: 'redaction',
      status: 200,
      cdPessoaFisica: '[redacted]',
      nested: { token: '[redacted]', status: 200 },
      headers: [{ chave: 'X-Api-Key', valor: '[redacted]' }],
    });
    expect(JSON.stringify(lines)).not.toMatch(/987654321|ABCDEF0123456789|segredo-4242/);
    expect(nested.token).toBe('ABCDEF0123456789');
    expect(headers[0]!.valor).toBe('segredo-4242');
    expect(fields.cdPessoaFisica).toBe(987654321);
  });
});
