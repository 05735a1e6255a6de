import { trace } from '@opentelemetry/api';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { log } from '@/lib/log';
import { inSpan, isTracing, startTracing, stopTracing, tracer, tracingConfigured } from './tracing';
import { logTo } from '@/lib/testing/hooks';

/**
 * Tracing is off with no cost unless an OTLP endpoint is configured: no SDK package is even loaded.
 * The packages are watched through vitest's module mocks, which hand out the real ones and note
 * each one loaded. The e2e spec e2e/api/traces.spec.ts asks the rest of running servers.
 */
const loaded = vi.hoisted(() => new Set<string>());
vi.mock('@opentelemetry/sdk-trace', async (original) => (loaded.add('sdk-trace'), original()));
vi.mock('@opentelemetry/context-async-hooks', async (original) => (loaded.add('context-async-hooks'), original()));
vi.mock('@opentelemetry/resources', async (original) => (loaded.add('resources'), original()));
vi.mock('@opentelemetry/exporter-trace-otlp-http', async (original) => (loaded.add('exporter-trace-otlp-http'), original()));
vi.mock('@opentelemetry/exporter-trace-otlp-proto', async (original) => (loaded.add('exporter-trace-otlp-proto'), original()));

describe('tracing', () => {
  afterAll(() => stopTracing());

  it('is asked for by an OTLP endpoint, and switched off by the standard variables that say so', () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_HEADERS: 'a=b' })).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });

  it('off, loads no SDK, registers nothing, and spans record nothing', async () => {
    await startTracing({});
    expect(isTracing()).toBe(false);
    expect([...loaded]).toEqual([]);
    expect(tracer().startSpan('anything').isRecording()).toBe(false);
    const seen = await inSpan('work', {}, async (span) => span.isRecording());
    expect(seen).toBe(false);
  });

  it('refuses to start on a protocol it does not speak, rather than send nothing', async () => {
    await expect(startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).rejects.toThrow(
      /http\/protobuf or http\/json/,
    );
    expect(isTracing()).toBe(false);
  });

  it('on, records spans, and every log line written in one names its trace and span', async () => {
    await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    expect(isTracing()).toBe(true);
    expect(loaded).toContain('sdk-trace');
    expect(loaded).toContain('exporter-trace-otlp-http');
    expect(loaded).not.toContain('exporter-trace-otlp-proto');

    const lines: Record<string, unknown>[] = [];
    const silent = process.env.LOG_SILENT;
    delete process.env.LOG_SILENT;
    logTo({ write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    try {
      const ids = await inSpan('work', {}, async (span) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        log.info('inside');
        expect(trace.getActiveSpan()).toBe(span);
        return span.spanContext();
      });
      log.info('outside');
      expect(lines.find((line) => line.event === 'inside')).toMatchObject({ traceId: ids.traceId, spanId: ids.spanId });
      expect(lines.find((line) => line.event === 'outside')).not.toHaveProperty('traceId');
    } finally {
      process.env.LOG_SILENT = silent;
      logTo(undefined);
    }
  });

  it('ends a span in error with the exception’s class, never its message', async () => {
    let failed: ReturnType<typeof trace.getActiveSpan>;
    const failure = new TypeError('value 0012345678901 rejected');
    await expect(
      inSpan('failing', {}, async (span) => {
        failed = span;
        throw failure;
      }),
    ).rejects.toBe(failure);
    const { attributes, status } = failed as unknown as { attributes: Record<string, unknown>; status: { code: number; message?: string } };
    expect(attributes['error.type']).toBe('TypeError');
    expect(status).toEqual({ code: 2 });
  });

  it('stops within its bound even when the endpoint cannot be reached', async () => {
    await inSpan('unsent', {}, async () => undefined);
    const started = Date.now();
    await stopTracing();
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(isTracing()).toBe(false);
  }, 10_000);
});
