import type { Knex } from 'knex';

export type Dialect = 'sqlite' | 'postgres' | 'oracle';

/** A row as a driver answers it: column types differ per database, so callers convert each value. */
export type DbRow = Record<string, unknown>;

export function dialectOf(db: Knex): Dialect {
  const client = String((db.client as { config: Knex.Config }).config.client);
  if (client === 'pg' || client === 'postgres' || client === 'postgresql') return 'postgres';
  if (client === 'oracledb') return 'oracle';
  return 'sqlite';
}

/** SQLite answers booleans as 0/1, PostgreSQL as booleans, Oracle as 0/1 numbers. */
export function toBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** PostgreSQL answers bigint columns as strings; every caller here wants a JS number. */
export function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

/**
 * Row lock for read-modify-write sequences inside a transaction. SQLite has a single writer and
 * knex warns on FOR UPDATE there, so it is only added where the database needs it.
 */
export function lockForUpdate<T extends Knex.QueryBuilder>(db: Knex, query: T): T {
  return (dialectOf(db) === 'sqlite' ? query : query.forUpdate()) as T;
}

/** A primary-key or unique-constraint violation, in any of the three databases' words. */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, errorNum } = error as { code?: unknown; errorNum?: unknown };
  return (
    code === '23505' || // PostgreSQL unique_violation
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    errorNum === 1 // Oracle ORA-00001 unique constraint violated
  );
}

/** The hour a millisecond timestamp column falls in, as whole hours since the epoch (for GROUP BY). */
export function hourOf(db: Knex, column: string): Knex.Raw {
  // Integer division on SQLite and PostgreSQL (both columns are integers); Oracle divides exactly.
  return dialectOf(db) === 'oracle' ? db.raw('floor(?? / 3600000)', [column]) : db.raw('(?? / 3600000)', [column]);
}
