import { afterEach, describe, expect, it } from 'vitest';
import { markRevoked, replaceSecret } from '@/lib/api-clients/store';
import { hashClientSecret } from '@/lib/auth/client-secrets';
import { hashSecret } from '@/lib/auth/passwords';
import { findStaffByEmail, updateStaffRow } from '@/lib/staff/store';
import { migratedSqlite } from '@/lib/testing/sqlite';
import { openDemoCredentials } from './demo-credentials';
import { demoSeed } from './demo-seed';

/** A database the demo seeded before issue 27 keeps its public credentials until someone closes them. */
describe('the demo’s public credentials still open a database', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it('names each one whose published secret or password still works, and none once revoked, rotated, disabled or changed', async () => {
    const seeded = await migratedSqlite(demoSeed());
    cleanup = seeded.cleanup;
    const { db } = seeded;
    expect(await openDemoCredentials(db)).toEqual([
      'portal-parceiro',
      'app-corretora',
      'avaliacao-saude',
      'admin@clinica.exemplo.com.br',
      'webhooks@clinica.exemplo.com.br',
      'agenda@clinica.exemplo.com.br',
    ]);

    await markRevoked(db, 'portal-parceiro', Date.now());
    // Rotated: the demo secret keeps working through the overlap, and stops after it.
    const rotate = (until: number) =>
      replaceSecret(
        db,
        'app-corretora',
        hashClientSecret('um-segredo-novo-e-longo'),
        hashClientSecret('segredo-demo-corretora-2026'),
        until,
      );
    await rotate(Date.now() + 3_600_000);
    expect(await openDemoCredentials(db)).toContain('app-corretora');
    await rotate(Date.now() - 1);
    const admin = (await findStaffByEmail(db, 'admin@clinica.exemplo.com.br'))!;
    await updateStaffRow(db, admin.id, { passwordHash: await hashSecret('Uma-Senha-Nova-Longa-1') });
    const agenda = (await findStaffByEmail(db, 'agenda@clinica.exemplo.com.br'))!;
    await updateStaffRow(db, agenda.id, { disabledAt: Date.now() });
    expect(await openDemoCredentials(db)).toEqual(['avaliacao-saude', 'webhooks@clinica.exemplo.com.br']);
  });

  it('names none on a database the demo never seeded', async () => {
    const empty = await migratedSqlite();
    cleanup = empty.cleanup;
    expect(await openDemoCredentials(empty.db)).toEqual([]);
  });
});
