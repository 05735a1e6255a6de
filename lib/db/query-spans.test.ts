import { context, propagation, trace, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import knex, { type Knex } from 'knex';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DirectSqliteTransaction, fastWriteTransaction } from './direct-transaction';
import { statementAttributes, traceKnexQueries } from './query-spans';

/**
 * Statement spans on a real SQLite database, through knex's events and the embedded hot path's
 * direct transactions, with an in-memory exporter standing in for the OTLP endpoint.
 */
describe('statement spans', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const tracer = provider.getTracer('test');
  let db: Knex;

  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager());
    trace.setGlobalTracerProvider(provider);
    db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true, pool: { min: 1, max: 1 } });
    traceKnexQueries(db);
    await db.raw('CREATE TABLE patients (id INTEGER PRIMARY KEY, cd_pessoa_fisica TEXT UNIQUE)');
  });

  afterAll(async () => {
    await db.destroy();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  afterEach(() => exporter.reset());

  const finished = () => exporter.getFinishedSpans();
  /** Runs `work` in a span of its own, as an API request's operation would. */
  const inOperation = <T>(name: string, work: (span: Span) => Promise<T>) =>
    tracer.startActiveSpan(name, async (span) => {
      try {
        return await work(span);
      } finally {
        span.end();
      }
    });
  const childrenOf = (parent: ReadableSpan | undefined) =>
    finished().filter((span) => span.parentSpanContext?.spanId === parent?.spanContext().spanId);

  it('a statement inside an operation is its child, with the statement’s text and never its values', async () => {
    await inOperation('operation', () => db('patients').insert({ cd_pessoa_fisica: '0012345678901' }));
    const operation = finished().find((span) => span.name === 'operation');
    const [statement] = childrenOf(operation);
    expect(statement?.name).toBe('INSERT patients');
    expect(statement?.attributes).toEqual({
      'db.system.name': 'sqlite',
      'db.operation.name': 'INSERT',
      'db.collection.name': 'patients',
      'db.query.text': 'insert into `patients` (`cd_pessoa_fisica`) values (?)',
    });
    expect(JSON.stringify(finished().map((span) => [span.attributes, span.status, span.events]))).not.toContain('0012345678901');
  });

  it('a failed statement gives its error’s code, not the driver’s message quoting the values', async () => {
    await db('patients').insert({ cd_pessoa_fisica: '0098765432100' });
    await inOperation('operation', () =>
      db('patients')
        .insert({ cd_pessoa_fisica: '0098765432100' })
        .catch(() => undefined),
    );
    const failed = finished().find((span) => span.name === 'INSERT patients');
    expect(failed?.status).toEqual({ code: 2 });
    expect(failed?.attributes['error.type']).toBe('SQLITE_CONSTRAINT_UNIQUE');
    expect(JSON.stringify([failed?.status, failed?.events])).not.toContain('0098765432100');
  });

  it('statements outside any operation (migrations, the worker’s polling) make no span', async () => {
    await db('patients').select('id');
    expect(finished()).toEqual([]);
  });

  it('in a group commit each work’s statements join its own operation’s trace, not the batch opener’s', async () => {
    const insert = (id: number) =>
      inOperation(`operation-${id}`, () =>
        fastWriteTransaction(db, async (tx) => (tx as DirectSqliteTransaction).execute('INSERT INTO patients (id) VALUES (?)', [id])),
      );
    // Both arrive in the same turn: one transaction, opened by the first.
    await Promise.all([insert(101), insert(102)]);
    for (const id of [101, 102]) {
      const statements = childrenOf(finished().find((span) => span.name === `operation-${id}`));
      expect(statements.map((span) => span.name)).toEqual(['INSERT patients']);
    }
  });

  it('keeps a long statement’s text short', () => {
    const text = `SELECT ${'a, '.repeat(200)}b FROM patients`;
    expect(String(statementAttributes('sqlite', text)['db.query.text'])).toHaveLength(201);
  });
});
