import type { Migration } from './migration';

/**
 * Rule 5 (one active reservation per beneficiary and procedure) must hold when two reservations of
 * the same beneficiary race on different agendas, whose locks do not exclude each other. A unique
 * key set only while a reservation is active makes the database refuse the second one. NULLs are
 * not compared by unique indexes in SQLite, PostgreSQL or Oracle, so released rows never collide.
 */
export const oneActiveBooking: Migration = {
  async up(db) {
    await db.schema.alterTable('reservations', (t) => {
      t.string('active_booking', 64);
    });
    const active: { token: string; cd_pessoa_fisica: unknown; nr_seq_proc_interno: unknown }[] = await db('reservations')
      .where({ status: 'active' })
      .select('token', 'cd_pessoa_fisica', 'nr_seq_proc_interno');
    for (const row of active) {
      await db('reservations')
        .where({ token: row.token })
        .update({
          // Frozen copy of the scheduler's activeBookingKey at the time of this migration.
          active_booking: `${String(row.cd_pessoa_fisica)}:${String(row.nr_seq_proc_interno)}`,
        });
    }
    await db.schema.alterTable('reservations', (t) => {
      t.unique(['active_booking'], { indexName: 'reservations_active_booking_uq' });
    });
  },
  async down(db) {
    await db.schema.alterTable('reservations', (t) => {
      t.dropUnique(['active_booking'], 'reservations_active_booking_uq');
      t.dropColumn('active_booking');
    });
  },
};
