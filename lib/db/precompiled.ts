import type { Knex } from 'knex';
import { dialectOf, type DbRow, type Dialect } from './dialect';
import { DirectSqliteTransaction } from './direct-transaction';

/** Where a precompiled query runs: knex (any database), or a direct SQLite transaction. */
export type Executor = Knex | Knex.Transaction | DirectSqliteTransaction;

/** The database an executor runs on. */
export function dialectOfExecutor(db: Executor): Dialect {
  return db instanceof DirectSqliteTransaction ? 'sqlite' : dialectOf(db);
}

/**
 * A knex query built once per dialect and run many times with fresh values. Building a query
 * (knex's builder, compiler and identifier quoting) cost about 0.1 ms of CPU per statement, more
 * than SQLite takes to run most of them: the hot path (a reservation is a dozen statements) runs
 * precompiled ones instead.
 *
 * `build` receives one placeholder per parameter and must give a query whose shape does not depend
 * on the values (no `whereNull` chosen by a value); the placeholders are then found among the
 * compiled bindings, so each run only swaps values in. Constants stay as written.
 */
const PLACEHOLDER = '\u0000precompiled-parameter:';

type Compiled = { sql: string; bindings: ({ parameter: number } | { constant: unknown })[] };

export class PrecompiledQuery<P extends unknown[]> {
  private readonly compiled = new Map<Dialect, Compiled>();

  constructor(
    private readonly arity: P['length'],
    private readonly build: (db: Knex, ...parameters: string[]) => Knex.QueryBuilder | Knex.Raw,
  ) {}

  private compile(db: Knex | DirectSqliteTransaction): Compiled {
    const dialect = dialectOfExecutor(db);
    let compiled = this.compiled.get(dialect);
    if (!compiled) {
      const placeholders = Array.from({ length: this.arity }, (_, i) => `${PLACEHOLDER}${i}`);
      const builder = db instanceof DirectSqliteTransaction ? db.knex : db;
      const { sql, bindings } = this.build(builder, ...placeholders).toSQL();
      compiled = {
        sql,
        bindings: bindings.map((binding) =>
          typeof binding === 'string' && binding.startsWith(PLACEHOLDER)
            ? { parameter: Number(binding.slice(PLACEHOLDER.length)) }
            : { constant: binding },
        ),
      };
      const used = compiled.bindings.flatMap((binding) => ('parameter' in binding ? [binding.parameter] : []));
      if (used.length !== this.arity || new Set(used).size !== this.arity) {
        throw new Error(`precompiled query: each of ${this.arity} parameters must appear exactly once as a value`);
      }
      if (dialect === 'sqlite') compiled = inlineConstants(compiled);
      this.compiled.set(dialect, compiled);
    }
    return compiled;
  }

  /** The statement as it runs on `db`'s database (diagnostics, tests). */
  sql(db: Knex | DirectSqliteTransaction): string {
    return this.compile(db).sql;
  }

  private values(compiled: Compiled, parameters: P): unknown[] {
    return compiled.bindings.map((binding) => ('parameter' in binding ? (parameters[binding.parameter] ?? null) : binding.constant));
  }

  private execute(db: Executor, parameters: P): Promise<unknown> {
    const compiled = this.compile(db);
    const values = this.values(compiled, parameters);
    if (db instanceof DirectSqliteTransaction) return Promise.resolve(db.execute(compiled.sql, values));
    return db.raw(compiled.sql, values as Knex.RawBinding[]);
  }

  /** The rows a SELECT answers. */
  async rows(db: Executor, ...parameters: P): Promise<DbRow[]> {
    // knex's own Oracle query answers rows as its builder names them; a raw one, as the driver does.
    if (!(db instanceof DirectSqliteTransaction) && dialectOf(db) === 'oracle') {
      return (await this.build(db, ...(parameters as unknown as string[]))) as DbRow[];
    }
    const result = await this.execute(db, parameters);
    if (Array.isArray(result)) return result as DbRow[]; // SQLite
    const rows = (result as { rows?: unknown }).rows; // PostgreSQL, Oracle
    return Array.isArray(rows) ? (rows as DbRow[]) : [];
  }

  /** A SELECT's first row; in a direct SQLite transaction, read without collecting the others. */
  async first(db: Executor, ...parameters: P): Promise<DbRow | undefined> {
    if (!(db instanceof DirectSqliteTransaction)) return (await this.rows(db, ...parameters))[0];
    const compiled = this.compile(db);
    return db.first(compiled.sql, this.values(compiled, parameters)) as DbRow | undefined;
  }

  /** How many rows an INSERT, UPDATE or DELETE touched. */
  async run(db: Executor, ...parameters: P): Promise<number> {
    if (!(db instanceof DirectSqliteTransaction) && dialectOf(db) === 'oracle') {
      // knex answers a raw statement on Oracle with its rows (none for an UPDATE), never the count
      // oracledb reports; its own query does answer the count. So there the query is built per run.
      const count: unknown = await this.build(db, ...(parameters as unknown as string[]));
      return typeof count === 'number' ? count : 0;
    }
    const result = (await this.execute(db, parameters)) as { changes?: unknown; rowCount?: unknown; rowsAffected?: unknown } | undefined;
    const count = result?.changes ?? result?.rowCount ?? result?.rowsAffected;
    return typeof count === 'number' ? count : 0;
  }
}

/**
 * On SQLite, constants are written into the statement instead of bound (`LIMIT 1`, `status =
 * 'active'`). SQLite recompiles a statement whenever it is run again with a new binding of a
 * parameter its query planner looked at (as it does a LIMIT's), and binding every value anew on each
 * run made it recompile five of a reservation's statements every time: two thirds of their cost.
 * Only integers, strings and null are inlined; anything else stays bound.
 */
function inlineConstants(compiled: Compiled): Compiled {
  const parts = compiled.sql.split('?');
  // knex binds every value, so each `?` is one binding; anything else is left as it is.
  if (parts.length - 1 !== compiled.bindings.length) return compiled;
  let sql = parts[0]!;
  const bindings: Compiled['bindings'] = [];
  compiled.bindings.forEach((binding, index) => {
    const literal = 'constant' in binding ? sqliteLiteral(binding.constant) : undefined;
    if (literal === undefined) bindings.push(binding);
    sql += (literal ?? '?') + parts[index + 1]!;
  });
  return { sql, bindings };
}

function sqliteLiteral(value: unknown): string | undefined {
  if (value === null) return 'NULL';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  return undefined;
}

/**
 * Precompiled queries whose shape depends only on a count (an IN list of `count` values, say): one
 * per count, compiled when first asked for. `arityOf(count)` parameters; `build` as for precompiled.
 */
export function precompiledPerCount(
  arityOf: (count: number) => number,
  build: (count: number, db: Knex, ...parameters: string[]) => Knex.QueryBuilder | Knex.Raw,
): (count: number) => PrecompiledQuery<unknown[]> {
  const byCount = new Map<number, PrecompiledQuery<unknown[]>>();
  return (count) => {
    let query = byCount.get(count);
    if (!query) {
      query = new PrecompiledQuery<unknown[]>(arityOf(count), (db, ...parameters) => build(count, db, ...parameters));
      byCount.set(count, query);
    }
    return query;
  };
}

export function precompiled<P extends unknown[]>(
  arity: P['length'],
  build: (db: Knex, ...parameters: string[]) => Knex.QueryBuilder | Knex.Raw,
): PrecompiledQuery<P> {
  return new PrecompiledQuery<P>(arity, build);
}

/** An INSERT of one row with these columns, precompiled; `run` takes the row as an object. */
export function precompiledInsert<C extends string>(table: string, columns: readonly C[]) {
  const query = precompiled<unknown[]>(columns.length, (db, ...values) =>
    db(table).insert(Object.fromEntries(columns.map((column, i) => [column, values[i]]))),
  );
  return { run: (db: Executor, row: Record<C, unknown>) => query.run(db, ...columns.map((column) => row[column])) };
}
