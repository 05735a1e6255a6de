import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSource } from '@/lib/db/migrations';
import { migratedSqlite } from '@/lib/testing/sqlite';
import { maskIdentifier, maskSecret, maskToken } from './masking';

describe('masks for the audit trail', () => {
  it('keeps a patient identifier’s last characters, a secret’s none', () => {
    expect(maskIdentifier(914_123_456)).toBe('••••••456');
    expect(maskIdentifier('0099887766554', 4)).toBe('••••••••6554');
    expect(maskIdentifier(null)).toBeNull();
    expect(maskSecret('valor-que-nao-pode-vazar')).toBe('••••••');
    expect(maskSecret('')).toBe('');
  });

  it('keeps the last 4 characters of a reservation token, none of a short one, and no token as it is', () => {
    expect(maskToken('9F3C0A1B2C3D4E5F60718293A4B5C6D7')).toBe('••••••••C6D7');
    expect(maskToken('0123456789ABCDEF')).toBe('••••••••CDEF');
    expect(maskToken('0123456789ABCDE')).toBe('••••••');
    expect(maskToken('')).toBe('');
    expect(maskToken(null)).toBeNull();
    expect(maskToken(undefined)).toBeNull();
  });
});

describe('entries written before tokens were masked', () => {
  let database: Awaited<ReturnType<typeof migratedSqlite>>;
  beforeAll(async () => {
    database = await migratedSqlite();
  });
  afterAll(() => database.cleanup());

  it('are masked by migration 011 as new ones are written, everything else left as it was', async () => {
    const { db } = database;
    await db.migrate.down({ migrationSource, name: '012_audit_token_masks' });
    const token = '9F3C0A1B2C3D4E5F60718293A4B5C6D7';
    const entry = (id: string, action: string, after: unknown) => ({
      id,
      at_ms: 1,
      actor_kind: 'api-client',
      actor_id: 'portal',
      action,
      target: 'slot:914001',
      outcome: 'CODIGO_P=0',
      http_status: 200,
      before_json: null,
      after_json: after === null ? null : JSON.stringify(after),
    });
    const reserved = { ieOpcao: 'R', nrSeqAgenda: 914001, tokenReservaCanc: null, TOKEN_RESERVA_P: token, CODIGO_P: '0' };
    const released = { ieOpcao: 'CR', nrSeqAgenda: 914001, tokenReservaCanc: token, TOKEN_RESERVA_P: '', CODIGO_P: '1' };
    const refused = { ieOpcao: 'CR', tokenReservaCanc: 'ERRADO', TOKEN_RESERVA_P: '', CODIGO_P: '4' };
    const alreadyMasked = { ...reserved, TOKEN_RESERVA_P: maskToken(token) };
    const webhook = { url: 'https://exemplo.com.br', token };
    await db('audit_events').insert([
      entry('a', 'slot.reserve', reserved),
      entry('b', 'slot.release', released),
      entry('c', 'slot.release', refused),
      entry('d', 'slot.reserve', alreadyMasked),
      entry('e', 'webhook.update', webhook),
      entry('f', 'slot.reserve', null),
    ]);

    await db.migrate.latest({ migrationSource });

    const rows: { id: string; after_json: string | null }[] = await db('audit_events').orderBy('id').select('id', 'after_json');
    expect(rows.map((row) => [row.id, row.after_json === null ? null : JSON.parse(row.after_json)])).toEqual([
      ['a', { ...reserved, TOKEN_RESERVA_P: maskToken(token) }],
      ['b', { ...released, tokenReservaCanc: maskToken(token) }],
      ['c', { ...refused, tokenReservaCanc: maskToken('ERRADO') }],
      ['d', alreadyMasked],
      ['e', webhook],
      ['f', null],
    ]);
  });
});
