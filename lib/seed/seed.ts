import 'server-only';
import fs from 'node:fs';
import type { Knex } from 'knex';
import { env } from '@/lib/config/env';
import { hashClientSecret } from '@/lib/auth/client-secrets';
import { hashSecret } from '@/lib/auth/passwords';
import { insertWebhook } from '@/lib/webhooks/configurations/store/configs';
import { demoSeed, demoSlots } from './demo-seed';
import { seedSchema, type SeedData } from './seed-format';

const SEEDED_KEY = 'seeded_at';

/**
 * The seed for a new database: SEED_FILE when set, the built-in demo when SEED_DEMO asks for it
 * (embedded default only, lib/config/env.ts), else nothing: a production database starts with no
 * accounts, and the first admin is created by `npm run create-admin` (lib/staff/first-admin.ts).
 */
export function loadSeed(): SeedData | undefined {
  const { SEED_FILE, SEED_DEMO } = env();
  if (SEED_FILE) {
    const parsed = seedSchema.safeParse(JSON.parse(fs.readFileSync(SEED_FILE, 'utf8')));
    if (!parsed.success) {
      const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
      throw new Error(`SEED_FILE ${SEED_FILE} is invalid:\n${lines.join('\n')}`);
    }
    return parsed.data;
  }
  return SEED_DEMO ? seedSchema.parse(demoSeed()) : undefined;
}

/** The built-in demo was asked for (SEED_DEMO, which excludes SEED_FILE and DATABASE_URL). */
export function usesDemoSeed(): boolean {
  return env().SEED_DEMO;
}

/**
 * Adds the demo's slots for the coming days that the database does not have yet, so a demo
 * database created weeks ago still offers free slots. Only for the built-in demo; idempotent.
 */
export async function topUpDemoSlots(db: Knex, now = new Date()): Promise<number> {
  const wanted = demoSlots(now);
  const existing = new Set(
    (
      await db('slots')
        .whereIn(
          'nr_seq_agenda',
          wanted.map((slot) => slot.nrSeqAgenda),
        )
        .select<{ nr_seq_agenda: unknown }[]>('nr_seq_agenda')
    ).map((row) => Number(row.nr_seq_agenda)),
  );
  const missing = wanted.filter((slot) => !existing.has(slot.nrSeqAgenda));
  await insertSlots(db, missing);
  return missing.length;
}

async function insertSlots(db: Knex, slots: SeedData['slots']): Promise<void> {
  const rows = slots.map((slot) => ({
    nr_seq_agenda: slot.nrSeqAgenda,
    cd_agenda: slot.cdAgenda,
    start_iso: slot.start,
    start_ms: Date.parse(slot.start),
    minutes: slot.minutes,
  }));
  // Small chunks: Oracle and SQLite cap the number of bind variables in one statement.
  for (let i = 0; i < rows.length; i += 100) await db('slots').insert(rows.slice(i, i + 100));
}

/**
 * Seeds a database once. The marker row is written in the same transaction as the data, so two
 * instances starting together cannot both seed: the second one's marker insert conflicts.
 */
export async function seedOnce(db: Knex, seed: SeedData | undefined): Promise<void> {
  if (!seed) return;
  if (await db('app_meta').where({ meta_key: SEEDED_KEY }).first()) return;
  // Hash outside the transaction: scrypt is slow and would hold SQLite's only connection.
  const staff = await Promise.all(seed.staff.map(async (user) => ({ ...user, hash: await hashSecret(user.password) })));
  const clients = seed.apiClients.map((client) => ({ ...client, hash: hashClientSecret(client.clientSecret) }));
  const now = Date.now();
  try {
    await db.transaction(async (trx) => {
      await trx('app_meta').insert({ meta_key: SEEDED_KEY, meta_value: new Date(now).toISOString() });
      for (const user of staff) {
        await trx('staff_users').insert({
          id: crypto.randomUUID(),
          email: user.email.toLowerCase(),
          name: user.name,
          password_hash: user.hash,
          roles: user.roles.join(','),
          created_at: now,
        });
      }
      for (const client of clients) {
        await trx('api_clients').insert({
          client_id: client.clientId,
          secret_hash: client.hash,
          name: client.name,
          usuario_id: client.usuarioId,
          sistema_origem: client.sistemaOrigem,
          scopes: client.scopes.join(' '),
          created_at: now,
        });
      }
      for (const config of seed.webhookConfigs) await insertWebhook(trx, config);
      for (const procedure of seed.procedures) {
        await trx('procedures').insert({
          nr_seq_proc_interno: procedure.nrSeqProcInterno,
          description: procedure.description,
          default_minutes: procedure.defaultMinutes,
          requires_side: procedure.requiresSide,
        });
      }
      const agendaCodes = [...new Set(seed.slots.map((slot) => slot.cdAgenda))];
      for (const cdAgenda of agendaCodes) await trx('agendas').insert({ cd_agenda: cdAgenda });
      await insertSlots(trx, seed.slots);
    });
  } catch (error) {
    // Another instance seeded first: its marker row is there now, and that is success for us.
    if (await db('app_meta').where({ meta_key: SEEDED_KEY }).first()) return;
    throw error;
  }
}
