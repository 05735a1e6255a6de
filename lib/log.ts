import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Structured logs: one JSON object a line (pino), `event` naming what happened, and the request id
 * of the API request being handled on every line written while handling it, beside the trace and
 * span ids when tracing is on (lib/observability/tracing.ts). Callers pass
 * identifiers of things (ids, codes, statuses), never request bodies, header values or patient
 * identifiers; the redaction paths below are a second line of defence, not the first.
 */
type Fields = Record<string, string | number | boolean | null | undefined>;

/** Keys that carry secrets, tokens, header values or patient identifiers, at the top and one level down. */
const SENSITIVE_KEYS = [
  'authorization',
  'cookie',
  'password',
  'secret',
  'client_secret',
  'clientSecret',
  'token',
  'access_token',
  'accessToken',
  'TOKEN_RESERVA_P',
  'tokenReservaCanc',
  'cdPessoaFisica',
  'cdUsuarioConvenio',
  'valor',
  'segredo',
];
const SENSITIVE = new Set(SENSITIVE_KEYS);
const CENSOR = '[redacted]';

/**
 * The fields with every sensitive key censored: at the top, one level down, and `valor` in each
 * item of `headers` (a webhook's custom headers). Done here rather than by pino's `redact`, which
 * cost more per line than writing it; the caller's object is never changed.
 */
export function redacted(fields: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key in fields) {
    const value = fields[key];
    const censored = SENSITIVE.has(key) ? CENSOR : value !== null && typeof value === 'object' ? redactedNested(key, value) : value;
    if (censored !== value) (copy ??= { ...fields })[key] = censored;
  }
  return copy ?? fields;
}

function redactedNested(key: string, value: object): unknown {
  if (Array.isArray(value)) {
    if (key !== 'headers') return value;
    const items: unknown[] = value.map((item: unknown) =>
      item !== null && typeof item === 'object' && 'valor' in item ? { ...item, valor: CENSOR } : item,
    );
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const inner in value) if (SENSITIVE.has(inner)) (copy ??= { ...value })[inner] = CENSOR;
  return copy ?? value;
}

/**
 * One per process, on globalThis like the logger: Next bundles this module more than once (routes,
 * instrumentation), and the logger's mixin must read the same context every copy sets or leaves.
 */
const contextHolder = globalThis as typeof globalThis & { __integrationConsoleRequestContext?: AsyncLocalStorage<{ requestId: string }> };
const requestContext = (contextHolder.__integrationConsoleRequestContext ??= new AsyncLocalStorage<{ requestId: string }>());

/** Runs `work` with `requestId` attached to every log line it writes, however deep. */
export function withRequestId<T>(requestId: string, work: () => T): T {
  return requestContext.run({ requestId }, work);
}

/**
 * Runs `work` outside any request: for background work that a request only starts (the webhook
 * worker woken by an accepted event), whose lines would otherwise carry that request's id, and so
 * would every line of the work it chains, though none of it belongs to that request.
 */
export function outsideRequest<T>(work: () => T): T {
  return requestContext.exit(work);
}

/** A logger writing JSON lines to `destination`, standard output when none (lib/testing/hooks.ts hands tests their own). */
export function createLogger(destination?: DestinationStream): Logger {
  const silent = process.env.LOG_SILENT === 'true';
  const options: pino.LoggerOptions = {
    level: silent ? 'silent' : (process.env.LOG_LEVEL ?? 'info'),
    messageKey: 'event',
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }), log: redacted },
    mixin: () => {
      const request = requestContext.getStore();
      // Tracing off, there is never an active span: OpenTelemetry's API answers undefined at once.
      const span = trace.getSpanContext(context.active());
      if (!span || !isSpanContextValid(span)) return request ? { requestId: request.requestId } : {};
      return { ...(request ? { requestId: request.requestId } : {}), traceId: span.traceId, spanId: span.spanId };
    },
  };
  return pino(options, destination ?? prettyStream() ?? standardOutput());
}

/**
 * Standard output, written asynchronously and in batches: lines gather in memory until 4 KiB or
 * FLUSH_INTERVAL_MS, whichever comes first, then go out in one write; a warning or an error sends
 * them at once. A synchronous write per line
 * made every API request wait for a system call. pino writes what is left when the process exits
 * (an uncaught error included); a SIGKILL loses at most the last interval's lines.
 */
const FLUSH_INTERVAL_MS = 200;
function standardOutput(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  let pending = false;
  const flush = () => {
    if (!pending) return;
    pending = false;
    try {
      destination.flush();
    } catch {
      // Closed (the process is ending): pino has written what was left.
    }
  };
  setInterval(flush, FLUSH_INTERVAL_MS).unref();
  holder.__integrationConsoleLogFlush = flush;
  return {
    write: (line: string) => {
      pending = true;
      destination.write(line);
    },
  };
}

/** Writes the pending lines now (on globalThis, like the logger): warnings and errors are rare, and wanted at once. */
function flushNow(): void {
  holder.__integrationConsoleLogFlush?.();
}

/**
 * Human-friendly lines for a developer at a terminal (`npm run dev`, or LOG_PRETTY=true). Loaded
 * at run time, not bundled: pino-pretty is a development dependency and absent from production.
 */
function prettyStream(): DestinationStream | undefined {
  const wanted = process.env.LOG_PRETTY === 'true' || (process.env.NODE_ENV === 'development' && process.env.LOG_PRETTY !== 'false');
  if (!wanted) return undefined;
  try {
    const load = createRequire(`${process.cwd()}/`);
    const pinoPretty = load('pino-pretty') as (options: { colorize: boolean; messageKey: string }) => DestinationStream;
    return pinoPretty({ colorize: Boolean(process.stdout.isTTY), messageKey: 'event' });
  } catch {
    return undefined; // not installed: plain JSON lines
  }
}

/** The process's logger, on globalThis: one for every bundle of lib/, and replaceable by tests (lib/testing/hooks.ts). */
const holder = globalThis as typeof globalThis & { __integrationConsoleLogger?: Logger; __integrationConsoleLogFlush?: () => void };

function logger(): Logger {
  holder.__integrationConsoleLogger ??= createLogger();
  return holder.__integrationConsoleLogger;
}

export const log = {
  info: (event: string, fields: Fields = {}) => logger().info(fields, event),
  warn: (event: string, fields: Fields = {}) => {
    logger().warn(fields, event);
    flushNow();
  },
  error: (event: string, fields: Fields = {}) => {
    logger().error(fields, event);
    flushNow();
  },
};

/** Class, code and the first line of the message: enough to find the cause, never the bind values. */
export function redactError(error: unknown): Fields {
  if (!(error instanceof Error)) return { errorType: typeof error };
  const code = (error as { code?: unknown }).code;
  const firstLine = error.message.split('\n')[0] ?? '';
  return {
    errorType: error.name,
    errorCode: typeof code === 'string' || typeof code === 'number' ? code : undefined,
    // Digits runs of 5+ can be patient or card numbers echoed by a driver: mask them.
    errorMessage: firstLine.slice(0, 300).replace(/\d{5,}/g, '#####'),
  };
}
