import * as sdk from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { batchSettings, exportProtocol, samplerFrom } from './tracing-sdk';

/** The standard variables the SDK setup reads itself (the exporter reads the endpoint, headers and timeout). */
describe('tracing SDK settings', () => {
  it('exports OTLP over HTTP: protobuf by default as the specification says, JSON on request, gRPC refused', () => {
    expect(exportProtocol({})).toBe('http/protobuf');
    expect(exportProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBe('http/json');
    expect(exportProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).toBe(
      'http/protobuf',
    );
    expect(() => exportProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL=grpc/);
  });

  it('samples as OTEL_TRACES_SAMPLER says, parent-based always-on by default', () => {
    expect(samplerFrom(sdk, {}).toString()).toMatch(/^ParentBased\{root=AlwaysOnSampler,/);
    expect(samplerFrom(sdk, { OTEL_TRACES_SAMPLER: 'always_off' })).toBeInstanceOf(sdk.AlwaysOffSampler);
    expect(samplerFrom(sdk, { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }).toString()).toMatch(
      /^ParentBased\{root=TraceIdRatioBased\{0\.25\},/,
    );
    // A ratio that is not one samples everything, as the specification's default ratio does.
    expect(samplerFrom(sdk, { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: 'lots' }).toString()).toBe(
      'TraceIdRatioBased{1}',
    );
    expect(() => samplerFrom(sdk, { OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(/not supported/);
  });

  it('batches by OTEL_BSP_*, leaving out what is unset or not a positive number', () => {
    expect(batchSettings({ OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_BSP_MAX_QUEUE_SIZE: '-1', OTEL_BSP_EXPORT_TIMEOUT: 'soon' })).toEqual({
      scheduledDelayMillis: 100,
      exportTimeoutMillis: undefined,
      maxQueueSize: undefined,
      maxExportBatchSize: undefined,
    });
  });
});
