import { describe, expect, it } from 'vitest';
import { toBoolean, toNumber } from './dialect';
import { rowReader, toOptionalNumber, toOptionalText } from './rows';

type Sample = {
  id: string;
  usuarioId: string;
  createdAt: number;
  readOnly: boolean;
  revokedAt: number | null;
  note: string | null;
  tags: string[];
};

const sampleOf = rowReader<Sample>({
  id: String,
  usuarioId: String,
  createdAt: toNumber,
  readOnly: toBoolean,
  revokedAt: toOptionalNumber,
  note: toOptionalText,
  tags: { column: 'tags_json', read: (value) => JSON.parse(String(value)) as string[] },
});

describe('rowReader', () => {
  it('reads each field from its snake_case column, as PostgreSQL answers them (bigints as strings, booleans)', () => {
    const row = { id: 'a', usuario_id: 'u1', created_at: '1700000000000', read_only: true, revoked_at: '5', note: 'x', tags_json: '["t"]' };
    expect(sampleOf(row)).toEqual({
      id: 'a',
      usuarioId: 'u1',
      createdAt: 1700000000000,
      readOnly: true,
      revokedAt: 5,
      note: 'x',
      tags: ['t'],
    });
  });

  it('reads SQLite and Oracle flags (0/1) and nulls', () => {
    const row = { id: 'b', usuario_id: 'u2', created_at: 7, read_only: 0, revoked_at: null, note: null, tags_json: '[]' };
    expect(sampleOf(row)).toEqual({ id: 'b', usuarioId: 'u2', createdAt: 7, readOnly: false, revokedAt: null, note: null, tags: [] });
  });
});
