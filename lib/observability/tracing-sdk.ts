import 'server-only';
import { context, propagation, trace } from '@opentelemetry/api';
import type { Sampler, SpanExporter } from '@opentelemetry/sdk-trace';
import { scrubbingExporter } from './span-scrubbing';

/**
 * The OpenTelemetry SDK, set up from the standard variables when tracing is on (tracing.ts): spans
 * batched to an OTLP/HTTP endpoint, W3C trace context from and to callers, AsyncLocalStorage to
 * carry the active span across awaits.
 *
 * Every SDK package is imported here with import(), inside the function, and never at the top:
 * the lean API bundle (scripts/build-api-server.mjs, esbuild) keeps packages external and would
 * hoist a static import of one to the top of the bundle, loading the SDK in every process. Next
 * keeps them external too (next.config.mjs), so both bundles load the SDK from node_modules, once.
 *
 * The exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS, _TIMEOUT, _COMPRESSION and
 * the TLS files itself; the rest (protocol, sampler, batching, resource) is read here, as the
 * OpenTelemetry specification names them, since the trace SDK no longer reads variables itself.
 */
export type TracingSdk = { shutdown(): Promise<void> };
/** The environment's variables, or a test's own. */
export type Variables = Readonly<Record<string, string | undefined>>;

const SERVICE_NAME = 'integration-console';
const PROTOCOLS = ['http/protobuf', 'http/json'] as const;
type Protocol = (typeof PROTOCOLS)[number];

export async function startTracingSdk(variables: Variables): Promise<TracingSdk> {
  const protocol = exportProtocol(variables);
  const [sdk, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, resources] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
  ]);
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ 'service.name': SERVICE_NAME }))
    // OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME win over the defaults.
    .merge(resources.detectResources({ detectors: [resources.resourceAttributesEnvDetector, resources.serviceNameEnvDetector] }))
    .merge(resources.detectResources({ detectors: [resources.serviceInstanceIdDetector] }));
  const provider = new sdk.TracerProvider({
    resource,
    sampler: samplerFrom(sdk, variables),
    // Every span, Next's own included, leaves without the query strings of its URLs (span-scrubbing.ts).
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter: scrubbingExporter(await exporterFor(protocol)), ...batchSettings(variables) })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return { shutdown: () => provider.shutdown() };
}

/** OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL: http/protobuf (the specification's default) or http/json; gRPC is not offered. */
export function exportProtocol(variables: Variables): Protocol {
  const given = (variables.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? variables.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim() || 'http/protobuf';
  if ((PROTOCOLS as readonly string[]).includes(given)) return given as Protocol;
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL=${given} is not supported: use http/protobuf or http/json (OTLP over HTTP).`);
}

async function exporterFor(protocol: Protocol): Promise<SpanExporter> {
  if (protocol === 'http/json') return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
  return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
}

type SamplerClasses = Pick<
  typeof import('@opentelemetry/sdk-trace'),
  'AlwaysOnSampler' | 'AlwaysOffSampler' | 'TraceIdRatioBasedSampler' | 'ParentBasedSampler'
>;

/**
 * OTEL_TRACES_SAMPLER (default parentbased_always_on: a caller's sampled trace is always
 * continued, an unsampled one never) with OTEL_TRACES_SAMPLER_ARG, the ratio of the ratio samplers.
 */
export function samplerFrom(classes: SamplerClasses, variables: Variables): Sampler {
  const name = variables.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  const argument = Number(variables.OTEL_TRACES_SAMPLER_ARG);
  const ratio = Number.isFinite(argument) && argument >= 0 && argument <= 1 && variables.OTEL_TRACES_SAMPLER_ARG?.trim() ? argument : 1;
  const roots: Record<string, () => Sampler> = {
    always_on: () => new classes.AlwaysOnSampler(),
    always_off: () => new classes.AlwaysOffSampler(),
    traceidratio: () => new classes.TraceIdRatioBasedSampler(ratio),
  };
  const [parentBased, rootName] = name.startsWith('parentbased_') ? [true, name.slice('parentbased_'.length)] : [false, name];
  const root = roots[rootName];
  if (!root)
    throw new Error(`OTEL_TRACES_SAMPLER=${name} is not supported: use always_on, always_off, traceidratio or their parentbased_ forms.`);
  return parentBased ? new classes.ParentBasedSampler({ root: root() }) : root();
}

/** OTEL_BSP_*: how long spans wait to be sent in batches, and how many are kept when the endpoint is slow (then dropped, never blocking). */
export function batchSettings(variables: Variables) {
  const positive = (name: string) => {
    const value = Number(variables[name]);
    return variables[name]?.trim() && Number.isFinite(value) && value > 0 ? value : undefined;
  };
  return {
    scheduledDelayMillis: positive('OTEL_BSP_SCHEDULE_DELAY'),
    exportTimeoutMillis: positive('OTEL_BSP_EXPORT_TIMEOUT'),
    maxQueueSize: positive('OTEL_BSP_MAX_QUEUE_SIZE'),
    maxExportBatchSize: positive('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
  };
}
