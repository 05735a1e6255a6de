import 'server-only';
import {
  context,
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Span,
  type SpanOptions,
  type Tracer,
} from '@opentelemetry/api';
import { startTracingSdk, type TracingSdk, type Variables } from './tracing-sdk';

/**
 * OpenTelemetry traces (issue 20), off unless an OTLP endpoint is configured with the standard
 * variables (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). Off, no SDK is
 * loaded (tracing-sdk.ts imports it only when started) and the code that makes spans checks
 * isTracing() first, or asks OpenTelemetry's API, whose answers without an SDK are constants.
 *
 * The switch is one per process, on globalThis: `npm start` loads the app twice (Next's server
 * bundle and the lean API path's bundle, scripts/serve.mjs), the SDK is started by whichever runs
 * lib/startup.ts first, and the other must see it on. OpenTelemetry's API keeps its own globals
 * (tracer provider, context manager, propagator) under a Symbol.for key too, so the two bundles'
 * copies of @opentelemetry/api share them.
 */
const TRACING = Symbol.for('integration-console.tracing');
type Holder = typeof globalThis & { [TRACING]?: { sdk: TracingSdk } };

/** How long the spans still queued at SIGTERM get to leave: a collector that is down must not hold a deploy up. */
const FLUSH_TIMEOUT_MS = 5_000;

/** Whether the variables ask for traces: an OTLP endpoint, unless OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none says otherwise. */
export function tracingConfigured(variables: Variables = process.env): boolean {
  if (variables.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (variables.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return false;
  return Boolean(variables.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || variables.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}

/** Starts the SDK when the variables ask for traces (lib/startup.ts, once per process); throws on a setting it cannot honour. */
export async function startTracing(variables: Variables = process.env): Promise<void> {
  const holder = globalThis as Holder;
  if (holder[TRACING] || !tracingConfigured(variables)) return;
  holder[TRACING] = { sdk: await startTracingSdk(variables) };
}

export function isTracing(): boolean {
  return (globalThis as Holder)[TRACING] !== undefined;
}

/** Sends the spans still queued and stops the SDK (SIGTERM, lib/shutdown.ts); never holds a shutdown up for long. */
export async function stopTracing(): Promise<void> {
  const holder = globalThis as Holder;
  const started = holder[TRACING];
  if (!started) return;
  delete holder[TRACING];
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_TIMEOUT_MS)));
  await Promise.race([started.sdk.shutdown().catch(() => undefined), giveUp]).finally(() => clearTimeout(timer));
}

export function tracer(): Tracer {
  return trace.getTracer('integration-console');
}

/** What `inSpan` hands its work when tracing is off: a span whose setters do nothing. */
const NOT_RECORDING: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * Runs `work` in a span, a child of the active one. An exception ends it in error with the
 * exception's class as `error.type`: never its message, which may quote SQL values or a receiver's
 * answer. Off, `work` runs as it is.
 */
export async function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  if (!isTracing()) return work(NOT_RECORDING);
  return tracer().startActiveSpan(name, options, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failSpan(span, errorType(error));
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Marks a span failed with a short, data-free `error.type` (a class name, an outcome, a status). */
export function failSpan(span: Span, type: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute('error.type', type);
}

export function errorType(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

/**
 * Runs `work` in no span: for background work a request only starts (the delivery worker woken by
 * an accepted event) and for work done for several operations at once (a batch of outcomes), which
 * would otherwise join the trace of whichever operation happened to start it.
 */
export function outsideSpans<T>(work: () => T): T {
  return isTracing() ? context.with(ROOT_CONTEXT, work) : work();
}
