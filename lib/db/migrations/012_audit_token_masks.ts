import type { Migration } from './migration';

/**
 * Reservation tokens in the audit trail (issue 27): entries of reservations and releases written
 * before then hold TOKEN_RESERVA_P and tokenReservaCanc in clear; they keep their last 4
 * characters now, as new entries do (lib/audit/masking.ts, maskToken). The mask is copied here,
 * not imported: lib/db imports no feature, and a shipped migration must not change when the
 * feature's mask does (lib/audit/masking.test.ts checks that old entries come out as new ones are
 * written). Pages of 500 by id; a value already masked is left as it is. Down leaves the masks: a
 * mask cannot be undone.
 */
const AUDIT_TOKEN_FIELDS = ['TOKEN_RESERVA_P', 'tokenReservaCanc'] as const;

function maskAuditedToken(token: string): string {
  if (token.length === 0 || token.startsWith('•')) return token;
  return token.length < 16 ? '••••••' : '•'.repeat(Math.min(token.length - 4, 8)) + token.slice(-4);
}

export const auditTokenMasks: Migration = {
  async up(db) {
    let after = '';
    for (;;) {
      const rows: { id: string; after_json: string | null }[] = await db('audit_events')
        .whereIn('action', ['slot.reserve', 'slot.release'])
        .andWhere('id', '>', after)
        .orderBy('id')
        .limit(500)
        .select('id', 'after_json');
      if (rows.length === 0) return;
      for (const row of rows) {
        const masked = row.after_json ? maskedAuditJson(row.after_json) : undefined;
        if (masked !== undefined) await db('audit_events').where({ id: row.id }).update({ after_json: masked });
      }
      after = rows.at(-1)!.id;
    }
  },
  async down() {},
};

/** The entry's JSON with its tokens masked, or undefined when it holds none in clear. */
function maskedAuditJson(json: string): string | undefined {
  const entry: unknown = JSON.parse(json);
  if (typeof entry !== 'object' || entry === null) return undefined;
  const fields = entry as Record<string, unknown>;
  let changed = false;
  for (const field of AUDIT_TOKEN_FIELDS) {
    const value = fields[field];
    if (typeof value !== 'string' || maskAuditedToken(value) === value) continue;
    fields[field] = maskAuditedToken(value);
    changed = true;
  }
  return changed ? JSON.stringify(fields) : undefined;
}
