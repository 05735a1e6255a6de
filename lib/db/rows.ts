import type { Knex } from 'knex';
import { toNumber, type DbRow } from './dialect';

/** A handle or a transaction: a store function runs in either. */
export type Db = Knex | Knex.Transaction;

/** A nullable number column: null (or absent) stays null, anything else converts as toNumber does. */
export const toOptionalNumber = (value: unknown): number | null => (value === null || value === undefined ? null : toNumber(value));

/** A nullable text column: anything but a string reads as null. */
export const toOptionalText = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** How one field is read: a converter of the column named as the field in snake_case, or of the column it names. */
type FieldReader<V> = ((value: unknown) => V) | { column: string; read: (value: unknown) => V };

/** One reader per field of the record: the compiler checks that none is missing and that each gives the field's type. */
export type RowFields<T> = { [K in keyof T]-?: FieldReader<T[K]> };

const snakeCase = (field: string) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * The converter from a driver's row to a store's typed record, the one place a store says which
 * column is a number, a flag or nullable (drivers answer them differently: PostgreSQL bigints as
 * strings, SQLite and Oracle booleans as 0/1). A field reads the column of its own name in
 * snake_case (usuarioId → usuario_id) unless its reader names another.
 */
export function rowReader<T>(fields: RowFields<T>): (row: DbRow) => T {
  const columns = Object.entries<FieldReader<unknown>>(fields).map(([field, reader]) =>
    typeof reader === 'function' ? { field, column: snakeCase(field), read: reader } : { field, ...reader },
  );
  return (row) => Object.fromEntries(columns.map(({ field, column, read }) => [field, read(row[column])])) as T;
}
