import 'server-only';
import type { Knex } from 'knex';
import { toNumber, type DbRow } from '@/lib/db/dialect';

/** What the triage's ranking reads from the other delivery tables, as correlated subqueries on the configuration's id. */
export type TriageSources = {
  /** `config_id` and `alert_since`, the start of its oldest open incident, for each configuration with an open alert (alerts/store.ts). */
  openAlertsSince: Knex.QueryBuilder;
  /** A configuration's deliveries due now, correlated on its id (delivery/store/). */
  dueDeliveries: (configIdColumn: string) => Knex.QueryBuilder;
};

/**
 * The staff triage's order (issue 27), in the database, so a page is the same slice whoever asks
 * and however many configurations there are: an open alert first, then failing, circuit open,
 * switched off, a backlog due, and healthy last (../health.ts's states, in HEALTH_STATES order). Within
 * a standing, tenants take turns: each tenant's longest-standing configuration comes before any
 * tenant's second, so one tenant with many configurations in the same standing cannot push
 * another's off the first page. Then the longest-standing first, then by URL. Open alerts are few:
 * read once and joined (a probe per configuration was most of the time on PostgreSQL); the backlog
 * can be large: one index probe per configuration, as the worker's own look does every second.
 */
export async function rankTriage(
  db: Knex,
  { usuarioId, now, limit, offset }: { usuarioId?: string; now: number; limit: number; offset: number },
  sources: TriageSources,
): Promise<{ ids: string[]; total: number }> {
  const visible = (query: Knex.QueryBuilder) => (usuarioId ? query.where('c.usuario_id', usuarioId) : query);
  const facts = visible(db('webhook_configs as c'))
    .leftJoin(sources.openAlertsSince.as('al'), 'al.config_id', 'c.id')
    .select(
      'c.id',
      'c.usuario_id',
      'c.url',
      'c.enabled',
      'c.circuit_open_until',
      'c.circuit_opened_at',
      'c.failing_since',
      'c.disabled_at',
      'al.alert_since',
      sources.dueDeliveries('c.id').min('next_attempt_at').as('due_since'),
    );
  // Each standing: its condition (the first that holds wins, as in health.ts's stateOf), its rank, and since when.
  const standings: { when: string; whenBindings: Knex.RawBinding[]; rank: number; since: string; sinceBindings: string[] }[] = [
    { when: '?? is not null', whenBindings: ['f.alert_since'], rank: 0, since: '??', sinceBindings: ['f.alert_since'] },
    { when: '?? = ?', whenBindings: ['f.enabled', false], rank: 3, since: 'coalesce(??, 0)', sinceBindings: ['f.disabled_at'] },
    {
      when: '?? > ?',
      whenBindings: ['f.circuit_open_until', now],
      rank: 2,
      since: 'coalesce(??, ??)',
      sinceBindings: ['f.circuit_opened_at', 'f.circuit_open_until'],
    },
    { when: '?? is not null', whenBindings: ['f.failing_since'], rank: 1, since: '??', sinceBindings: ['f.failing_since'] },
    { when: '?? is not null', whenBindings: ['f.due_since'], rank: 4, since: '??', sinceBindings: ['f.due_since'] },
  ];
  const caseOf = (value: (standing: (typeof standings)[number]) => [string, Knex.RawBinding[]], otherwise: number, alias: string) =>
    db.raw(
      `case ${standings.map((standing) => `when ${standing.when} then ${value(standing)[0]}`).join(' ')} else ${otherwise} end as ??`,
      [...standings.flatMap((standing) => [...standing.whenBindings, ...value(standing)[1]]), alias],
    );
  const ranked = db.from(facts.as('f')).select(
    'f.id',
    'f.usuario_id',
    'f.url',
    caseOf((standing) => [String(standing.rank), []], 5, 'standing'),
    caseOf((standing) => [standing.since, standing.sinceBindings], 0, 'standing_since'),
  );
  const turns = db
    .from(ranked.as('r'))
    .select(
      'r.id',
      'r.url',
      'r.standing',
      'r.standing_since',
      db.raw('row_number() over (partition by ??, ?? order by ??, ??, ??) as ??', [
        'r.usuario_id',
        'r.standing',
        'r.standing_since',
        'r.url',
        'r.id',
        'tenant_turn',
      ]),
    );
  const [rows, counted] = await Promise.all([
    db
      .from(turns.as('t'))
      .orderBy(['t.standing', 't.tenant_turn', 't.standing_since', 't.url', 't.id'])
      .limit(limit)
      .offset(offset)
      .select<DbRow[]>('t.id'),
    visible(db('webhook_configs as c')).count({ n: '*' }).first() as Promise<DbRow | undefined>,
  ]);
  return { ids: rows.map((row) => String(row.id)), total: toNumber(counted?.n ?? 0) };
}
