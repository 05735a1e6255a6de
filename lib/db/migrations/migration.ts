import type { Knex } from 'knex';

/** One schema change and its undoing; see ./index.ts for the rules every migration follows. */
export type Migration = { up(db: Knex): Promise<void>; down(db: Knex): Promise<void> };
