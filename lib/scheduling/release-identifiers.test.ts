import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClientPrincipal, StaffPrincipal } from '@/lib/auth/principal';
import { resetEnv } from '@/lib/testing/hooks';
import { migratedSqlite } from '@/lib/testing/sqlite';
import { purgeReleaseIdentifiers, recordRelease, recordReservation, releaseRequestFor } from './recent-reservations-store';

/**
 * The one-click release's stored identifiers (issue 47): sealed to their row, never in clear,
 * opened only for that row, and gone once the reservation is no longer releasable.
 */
const staff: StaffPrincipal = { kind: 'staff', userId: 'u1', email: 'agenda@exemplo.com.br', name: 'Ana', roles: ['scheduling'] };
const client: ApiClientPrincipal = {
  kind: 'api-client',
  issuer: 'embedded',
  scopes: ['scheduling'],
  clientId: 'parceiro',
  usuarioId: '11111111-1111-4111-8111-111111111111',
  sistemaOrigem: 1,
};
const reservation = {
  nrSeqAgenda: 4242,
  nrSeqProcInterno: 7,
  nrMinDuracao: 40,
  ieLado: 'E' as const,
  ieOpcao: 'R' as const,
  cdPessoaFisica: 9_876_543,
  cdConvenio: 12,
  cdCategoria: 1,
  cdPlano: 3,
  cdUsuarioConvenio: '0099887766554',
  nmUsuario: 'console',
};
const T0 = 1_900_000_000_000;

describe('identifiers kept for a one-click release', () => {
  let db: Knex;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    process.env.AUTH_SECRET = 'unit-test-auth-secret-of-at-least-32-characters';
    resetEnv();
    ({ db, cleanup } = await migratedSqlite());
  });
  afterAll(() => cleanup());

  it('builds the release of a staff reservation from its row, with nothing of the patient in clear', async () => {
    await recordReservation(db, staff, reservation, { token: 'TK-STAFF-1', at: T0, expiresAt: T0 + 60_000 });
    const stored = JSON.stringify(await db('reservation_log').where({ token: 'TK-STAFF-1' }));
    expect(stored).not.toContain('9876543');
    expect(stored).not.toContain('0099887766554');
    expect(await releaseRequestFor(db, staff, 'TK-STAFF-1', T0 + 1)).toEqual({
      kind: 'ready',
      request: { ...reservation, ieOpcao: 'CR', tokenReservaCanc: 'TK-STAFF-1' },
    });
  });

  it('does not open a sealed value moved to another row: its release must be sent with the identifiers', async () => {
    await recordReservation(db, staff, { ...reservation, nrSeqAgenda: 4243 }, { token: 'TK-STAFF-2', at: T0 });
    const { release_sealed } = (await db('reservation_log').where({ token: 'TK-STAFF-1' }).first()) as { release_sealed: string };
    await db('reservation_log').where({ token: 'TK-STAFF-2' }).update({ release_sealed });
    expect(await releaseRequestFor(db, staff, 'TK-STAFF-2', T0 + 1)).toEqual({ kind: 'not-kept' });
  });

  it('keeps none for an API client, which sends its own release, and hides other owners’ tokens from it', async () => {
    await recordReservation(db, client, { ...reservation, nrSeqAgenda: 4244 }, { token: 'TK-CLIENT-1', at: T0 });
    expect(await releaseRequestFor(db, staff, 'TK-CLIENT-1', T0 + 1)).toEqual({ kind: 'not-kept' });
    expect(await releaseRequestFor(db, client, 'TK-STAFF-1', T0 + 1)).toEqual({ kind: 'unknown' });
  });

  it('clears them on release, and sweeps those of lapsed holds', async () => {
    await recordRelease(db, { ...reservation, nrSeqAgenda: 4243, ieOpcao: 'CR', tokenReservaCanc: 'TK-STAFF-2' }, T0 + 2);
    expect(await db('reservation_log').where({ token: 'TK-STAFF-2' }).first()).toMatchObject({ state: 'released', release_sealed: null });
    expect(await releaseRequestFor(db, staff, 'TK-STAFF-2', T0 + 3)).toEqual({ kind: 'not-releasable', estado: 'released' });

    expect(await releaseRequestFor(db, staff, 'TK-STAFF-1', T0 + 60_000)).toEqual({ kind: 'not-releasable', estado: 'expired' });
    expect(await purgeReleaseIdentifiers(db, T0 + 59_999)).toBe(0);
    expect(await purgeReleaseIdentifiers(db, T0 + 60_000)).toBe(1);
    expect(await db('reservation_log').whereNotNull('release_sealed').pluck('token')).toEqual([]);
  });
});
