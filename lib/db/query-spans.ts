import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { Knex } from 'knex';
import { dialectOf, type Dialect } from './dialect';

/**
 * A span per database statement, inside the span of the operation that runs it (an API request, a
 * delivery attempt); statements outside one (migrations, the delivery worker's polling) make none,
 * so an idle server sends no trace. Explicit rather than OpenTelemetry's knex instrumentation,
 * which patches modules as Node loads them: Next and esbuild bundle the app, so no hook would see
 * knex load.
 *
 * The statement's text is as knex sends it, with placeholders for the values, and cut short; the
 * values themselves (patient identifiers, tokens) are never read, nor is a driver's error message,
 * which may quote them: a failed statement gives its error's code or class only.
 */
const MAX_QUERY_TEXT = 200;
const SYSTEM_NAMES: Record<Dialect, string> = { sqlite: 'sqlite', postgres: 'postgresql', oracle: 'oracle.db' };
/** Statements whose end has not been heard of yet, at most this many: a bound, should knex ever not say. */
const MAX_OPEN_QUERIES = 10_000;

type KnexQuery = { __knexQueryUid?: string; sql?: string };

/** Spans for the statements knex runs on `db` (lib/db/handle.ts: only when tracing is on). */
export function traceKnexQueries(db: Knex): void {
  const system = SYSTEM_NAMES[dialectOf(db)];
  const open = new Map<string, Span>();
  db.on('query', (query: KnexQuery) => {
    // BEGIN and COMMIT come without an id, and no event ends them: they make no span.
    const parent = recordingParent();
    if (!parent || !query.__knexQueryUid || !query.sql || open.size >= MAX_OPEN_QUERIES) return;
    open.set(query.__knexQueryUid, startStatementSpan(system, query.sql, parent));
  });
  db.on('query-response', (_response: unknown, query: KnexQuery) => endStatementSpan(open, query));
  db.on('query-error', (error: unknown, query: KnexQuery) => endStatementSpan(open, query, error));
}

/**
 * Runs one statement of the embedded database's direct transactions (direct-transaction.ts), which
 * bypass knex and so its events, in a span of its own when its operation is traced.
 */
export function inStatementSpan<T>(sql: string, run: () => T): T {
  const parent = recordingParent();
  if (!parent) return run();
  const span = startStatementSpan(SYSTEM_NAMES.sqlite, sql, parent);
  try {
    return run();
  } catch (error) {
    failStatement(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** The active context when it holds a span being recorded; tracing off, never (no context manager, no span). */
function recordingParent(): Context | undefined {
  const active = context.active();
  return trace.getSpan(active)?.isRecording() ? active : undefined;
}

/** Named `SELECT webhook_deliveries`, as the conventions say: the operation and the table, never a value. */
function startStatementSpan(system: string, sql: string, parent: Context): Span {
  const attributes = statementAttributes(system, sql);
  const name = [attributes['db.operation.name'], attributes['db.collection.name']].filter(Boolean).join(' ');
  return trace.getTracer('integration-console').startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent);
}

/** The conventions' database attributes, from the statement's text alone. */
export function statementAttributes(system: string, sql: string): Attributes {
  const operation = /^\s*([a-z]+)/i.exec(sql)?.[1]?.toUpperCase() ?? 'QUERY';
  const table = /\b(?:from|into|update)\s+[`"[]?([\w.]+)/i.exec(sql)?.[1];
  return {
    'db.system.name': system,
    'db.operation.name': operation,
    'db.collection.name': table,
    'db.query.text': sql.length > MAX_QUERY_TEXT ? `${sql.slice(0, MAX_QUERY_TEXT)}…` : sql,
  };
}

function endStatementSpan(open: Map<string, Span>, query: KnexQuery, error?: unknown): void {
  const span = query.__knexQueryUid ? open.get(query.__knexQueryUid) : undefined;
  if (!span) return;
  open.delete(query.__knexQueryUid!);
  if (error !== undefined) failStatement(span, error);
  span.end();
}

function failStatement(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute('error.type', typeof code === 'string' ? code : error instanceof Error ? error.name : typeof error);
}
