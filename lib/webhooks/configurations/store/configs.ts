import 'server-only';
import type { Knex } from 'knex';
import { isUniqueViolation, lockForUpdate, toBoolean, toNumber, type DbRow } from '@/lib/db/dialect';
import { WEBHOOK_EVENT_FLAGS, type WebhookEventFlag } from '@/lib/webhooks/events/types';
import { type WebhookConfiguration, type WebhookHeader } from '@/lib/webhooks/configurations/contract';
import { newEncryptedSecret } from '@/lib/webhooks/configurations/secrets';
import type { CircuitState } from '@/lib/webhooks/delivery/circuit';
import type { PayloadControl } from '@/lib/webhooks/payload-control/contract';
import { payloadControlFromRow, payloadControlRow } from '@/lib/webhooks/payload-control/store';

/** Whether deliveries go out, and if not, why and since when (issue 10 §3); the receiver's circuit (issue 18). */
export type DeliveryState = {
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: number | null;
  /** Since when every attempt has failed (null: the last one succeeded); the disable-after-a-window rule counts from it. */
  failingSince: number | null;
  circuit: CircuitState;
  /** Until when its receiver asked for a pause (a 429 or 503 with Retry-After). */
  pausedUntil: number | null;
};

const optionalNumber = (value: unknown) => (value === null || value === undefined ? null : toNumber(value));

export function circuitFromRow(row: DbRow): CircuitState {
  return {
    failures: toNumber(row.circuit_failures ?? 0),
    openUntil: optionalNumber(row.circuit_open_until),
    openedAt: optionalNumber(row.circuit_opened_at),
  };
}

/**
 * How deliveries to a configuration go (issue 31): at most `ratePerSecond` attempts a second, across
 * every instance (null: no limit), and `ordered`, one at a time in publication order.
 */
export type DeliveryControls = { ratePerSecond: number | null; ordered: boolean };
export const NO_CONTROLS: DeliveryControls = { ratePerSecond: null, ordered: false };

export type StoredWebhook = {
  config: WebhookConfiguration;
  version: number;
  state: DeliveryState;
  controls: DeliveryControls;
  /** The partner's technical contact, e-mailed when the worker switches deliveries off and when they are back (issue 31 §3). */
  contactEmail: string | null;
  /** Whether its owner confirmed the contact from the link e-mailed to it (issue 43): only then is it told anything. */
  contactConfirmed: boolean;
  /** A broker target's login, encrypted (broker-credentials.ts); null: none. */
  brokerCredentialsEnc: string | null;
  /** Its content filter, field rules and transformation (issue 46, payload-control/). */
  payload: PayloadControl;
};

function fromRow(row: DbRow, events: ReadonlySet<string>): StoredWebhook {
  const flags = Object.fromEntries(WEBHOOK_EVENT_FLAGS.map((flag) => [flag, events.has(flag)])) as Record<WebhookEventFlag, boolean>;
  return {
    version: toNumber(row.version),
    controls: { ratePerSecond: optionalNumber(row.rate_limit_per_second), ordered: toBoolean(row.ordered ?? false) },
    contactEmail: typeof row.contact_email === 'string' ? row.contact_email : null,
    contactConfirmed: typeof row.contact_email === 'string' && optionalNumber(row.contact_confirmed_at) !== null,
    brokerCredentialsEnc: typeof row.broker_credentials_enc === 'string' ? row.broker_credentials_enc : null,
    payload: payloadControlFromRow(row),
    state: {
      enabled: toBoolean(row.enabled),
      disabledReason: typeof row.disabled_reason === 'string' ? row.disabled_reason : null,
      disabledAt: optionalNumber(row.disabled_at),
      failingSince: optionalNumber(row.failing_since),
      circuit: circuitFromRow(row),
      pausedUntil: optionalNumber(row.paused_until),
    },
    config: {
      id: String(row.id),
      usuarioId: String(row.usuario_id),
      sistemaOrigem: toNumber(row.sistema_origem),
      url: String(row.url),
      clientId: typeof row.client_id === 'string' ? row.client_id : null,
      headers: JSON.parse(String(row.headers_json)) as WebhookHeader[],
      ...flags,
    },
  };
}

/**
 * Event subscriptions (issue 28): a row per configuration and event it receives
 * (webhook_subscriptions), so a new event type is data, not a column. The API object keeps the
 * contract's flags: each flag is whether its row exists.
 */
async function subscriptionsOf(db: Knex | Knex.Transaction, ids: readonly string[]): Promise<Map<string, Set<string>>> {
  const events = new Map<string, Set<string>>(ids.map((id) => [id, new Set<string>()]));
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db('webhook_subscriptions')
      .whereIn('config_id', ids.slice(i, i + 1000))
      .select<DbRow[]>('config_id', 'event_type');
    for (const row of rows) events.get(String(row.config_id))?.add(String(row.event_type));
  }
  return events;
}

async function withSubscriptions(db: Knex | Knex.Transaction, rows: readonly DbRow[]): Promise<StoredWebhook[]> {
  const events = await subscriptionsOf(
    db,
    rows.map((row) => String(row.id)),
  );
  return rows.map((row) => fromRow(row, events.get(String(row.id)) ?? new Set()));
}

/**
 * The configuration's flag subscriptions replaced by its flags' (in the caller's transaction). Rows
 * of other event types (the operator's operational events) are not the flags' to remove.
 */
async function saveSubscriptions(trx: Knex.Transaction, config: WebhookConfiguration): Promise<void> {
  await trx('webhook_subscriptions').where({ config_id: config.id }).whereIn('event_type', WEBHOOK_EVENT_FLAGS).delete();
  const rows = WEBHOOK_EVENT_FLAGS.filter((flag) => config[flag]).map((flag) => ({ config_id: config.id, event_type: flag }));
  if (rows.length > 0) await trx('webhook_subscriptions').insert(rows);
}

export async function findWebhook(db: Knex | Knex.Transaction, id: string, options: { lock?: boolean } = {}) {
  // By primary key, so at most one row; no .first() (a limit), which Oracle cannot lock FOR UPDATE.
  const query = db('webhook_configs').where({ id });
  const rows = (await (options.lock ? lockForUpdate(db, query) : query)) as DbRow[];
  return rows[0] ? (await withSubscriptions(db, rows))[0] : undefined;
}

export async function listWebhooks(db: Knex, filter: { usuarioId?: string; search?: string; limit: number }) {
  let query = db('webhook_configs').orderBy('url').limit(filter.limit);
  if (filter.usuarioId) query = query.where({ usuario_id: filter.usuarioId });
  if (filter.search) {
    const pattern = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // ?? quotes the column per dialect (Oracle's quoted lower-case names are case-sensitive).
    const matches = (column: string) => [`lower(??) like ? escape '\\'`, [column, pattern]] as const;
    query = query.where((q) => {
      q.whereRaw(...matches('url'))
        .orWhereRaw(...matches('usuario_id'))
        .orWhereRaw(...matches('client_id'));
    });
  }
  return withSubscriptions(db, (await query) as DbRow[]);
}

/** The configurations with these ids (at most 1,000: Oracle's IN list), by id. */
export async function findWebhooks(db: Knex, ids: readonly string[]): Promise<Map<string, StoredWebhook>> {
  if (ids.length === 0) return new Map();
  const found = await withSubscriptions(db, (await db('webhook_configs').whereIn('id', [...ids])) as DbRow[]);
  return new Map(found.map((stored) => [stored.config.id, stored]));
}

/** The configurations a caller may see (one tenant's, or every one): id, url and usuario_id, for another store's list to join. */
export function visibleConfigs(db: Knex, usuarioId: string | undefined): Knex.QueryBuilder {
  const query = db('webhook_configs').select('id', 'url', 'usuario_id');
  return usuarioId ? query.where({ usuario_id: usuarioId }) : query;
}

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
 * switched off, a backlog due, and healthy last (health.ts's states, in HEALTH_STATES order). Within
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

/** The columns a configuration is stored in. */
function toRow(config: WebhookConfiguration, version: number) {
  return {
    id: config.id,
    usuario_id: config.usuarioId,
    sistema_origem: config.sistemaOrigem,
    client_id: config.clientId,
    url: config.url,
    headers_json: JSON.stringify(config.headers),
    version,
    updated_at: Date.now(),
  };
}

export async function insertWebhook(trx: Knex.Transaction, config: WebhookConfiguration, controls = NO_CONTROLS): Promise<void> {
  await trx('webhook_configs').insert({
    ...toRow(config, 1),
    ...controlsRow(controls),
    secret_enc: newEncryptedSecret(config.id),
    enabled: true,
  });
  await saveSubscriptions(trx, config);
}

/** How many configurations the tenant has (the create's quota counts them under the tenant's row lock: quotas.ts). */
export async function countTenantWebhooks(trx: Knex.Transaction, usuarioId: string): Promise<number> {
  const row = (await trx('webhook_configs').where({ usuario_id: usuarioId }).count({ n: '*' }).first()) as DbRow | undefined;
  return toNumber(row?.n ?? 0);
}

/** A closed circuit, and no pause its receiver asked for: deliveries may go at once. */
const CLOSED_CIRCUIT = { circuit_failures: 0, circuit_open_until: null, circuit_opened_at: null, paused_until: null };

/** Switches deliveries on (clearing why they were off, and the circuit) or off (for `reason`); part of the version. */
export async function saveDeliveryState(trx: Knex.Transaction, id: string, enabled: boolean, reason: string | null, now: number) {
  const values = enabled
    ? { enabled: true, disabled_reason: null, disabled_at: null, failing_since: null, ...CLOSED_CIRCUIT }
    : { enabled: false, disabled_reason: reason, disabled_at: now };
  await trx('webhook_configs').where({ id }).update(values);
}

/** Deliveries to this configuration may be attempted again at once (its receiver URL changed): circuit closed, pause lifted. */
export async function closeCircuit(trx: Knex.Transaction, id: string) {
  await trx('webhook_configs').where({ id }).update(CLOSED_CIRCUIT);
}

/** Writes a whole configuration, only if it still has `expectedVersion`; false when it did not. */
export async function saveWebhook(trx: Knex.Transaction, config: WebhookConfiguration, expectedVersion: number) {
  // Identity and tenant never change on update.
  const {
    id,
    usuario_id: _usuarioId,
    sistema_origem: _sistemaOrigem,
    client_id: _clientId,
    ...changeable
  } = toRow(config, expectedVersion + 1);
  const updated = await trx('webhook_configs').where({ id, version: expectedVersion }).update(changeable);
  if (updated === 1) await saveSubscriptions(trx, config);
  return updated === 1;
}

function controlsRow(controls: DeliveryControls) {
  return { rate_limit_per_second: controls.ratePerSecond, ordered: controls.ordered };
}

/** A configuration's delivery controls (part of its version, written with saveWebhook). */
export async function saveControls(trx: Knex.Transaction, id: string, controls: DeliveryControls): Promise<void> {
  await trx('webhook_configs').where({ id }).update(controlsRow(controls));
}

/** A contact's confirmation link as stored: the SHA-256 of its token, and its end of life. */
export type ContactLink = { tokenHash: string; expires: number };

/**
 * The technical contact's e-mail (null: none), unconfirmed, with the link that confirms it; beyond
 * the contract, not part of the version.
 */
export async function saveContactEmail(trx: Knex.Transaction, id: string, email: string | null, link: ContactLink | null): Promise<void> {
  await trx('webhook_configs')
    .where({ id })
    .update({
      contact_email: email,
      contact_confirmed_at: null,
      contact_token_hash: link?.tokenHash ?? null,
      contact_token_expires: link?.expires ?? null,
    });
}

/** Confirms the contact whose live link has this token hash, once; false when none has. */
export async function confirmContactEmail(db: Knex, tokenHash: string, now: number): Promise<boolean> {
  const changed = await db('webhook_configs')
    .where({ contact_token_hash: tokenHash })
    .andWhere('contact_token_expires', '>', now)
    .update({ contact_confirmed_at: now, contact_token_hash: null, contact_token_expires: null });
  return changed > 0;
}

/** A broker target's login, encrypted (null: none); beyond the contract, not part of the version. */
/** A configuration's payload control (filter, field rules, transformation), saved with its PUT. */
export async function savePayloadControl(trx: Knex.Transaction, id: string, control: PayloadControl): Promise<void> {
  await trx('webhook_configs').where({ id }).update(payloadControlRow(control));
}

export async function saveBrokerCredentials(trx: Knex.Transaction, id: string, encrypted: string | null): Promise<void> {
  await trx('webhook_configs').where({ id }).update({ broker_credentials_enc: encrypted });
}

/**
 * Subscribes a configuration to event types beyond the flags (the operator's operational events),
 * each row added once: one already there, or added by another instance meanwhile, is left as it is.
 */
export async function addSubscriptions(db: Knex, id: string, eventTypes: readonly string[]): Promise<void> {
  const present = new Set((await db('webhook_subscriptions').where({ config_id: id }).pluck('event_type')).map(String));
  for (const eventType of eventTypes.filter((type) => !present.has(type))) {
    try {
      await db('webhook_subscriptions').insert({ config_id: id, event_type: eventType });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
}

export async function removeSubscriptions(db: Knex, id: string, eventTypes: readonly string[]): Promise<number> {
  return db('webhook_subscriptions').where({ config_id: id }).whereIn('event_type', eventTypes).delete();
}

/** The configuration's row (its deliveries go first: deleteDeliveriesOf in the delivery store). */
export async function deleteWebhookRow(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('webhook_subscriptions').where({ config_id: id }).delete();
  await trx('webhook_configs').where({ id }).delete();
}

/** The signing secret as stored (encrypted: lib/webhooks/configurations/secrets.ts opens it). */
export async function readEncryptedSecret(db: Knex | Knex.Transaction, id: string): Promise<string | undefined> {
  const row = await db('webhook_configs').where({ id }).first<DbRow | undefined>('secret_enc');
  return typeof row?.secret_enc === 'string' ? row.secret_enc : undefined;
}

/** A new signing secret; the one it replaces keeps signing beside it until `previousUntil`. */
export async function replaceEncryptedSecret(trx: Knex.Transaction, id: string, secretEnc: string, previousUntil: number): Promise<void> {
  const previous = await readEncryptedSecret(trx, id);
  await trx('webhook_configs')
    .where({ id })
    .update({ secret_enc: secretEnc, previous_secret_enc: previous ?? null, previous_secret_until: previousUntil });
}

/** Configurations stored before secrets existed (migration 004) get theirs when the app opens the database. */
export async function ensureWebhookSecrets(db: Knex): Promise<void> {
  const missing: DbRow[] = await db('webhook_configs').whereNull('secret_enc').select('id');
  for (const row of missing) {
    const id = String(row.id);
    await db('webhook_configs')
      .where({ id })
      .whereNull('secret_enc')
      .update({ secret_enc: newEncryptedSecret(id) });
  }
}

export type ConfigurationStates = { active: number; circuitOpen: number; disabled: number };

/** How many configurations deliver, wait behind an open circuit, or are switched off: for the metrics' gauge. */
export async function countConfigurationStates(db: Knex, now: number): Promise<ConfigurationStates> {
  const count = async (query: Knex.QueryBuilder) => toNumber(((await query.count({ n: '*' }).first()) as DbRow | undefined)?.n ?? 0);
  const [all, disabled, circuitOpen] = await Promise.all([
    count(db('webhook_configs')),
    count(db('webhook_configs').where('enabled', false)),
    count(db('webhook_configs').where('enabled', true).andWhere('circuit_open_until', '>', now)),
  ]);
  return { active: all - disabled - circuitOpen, circuitOpen, disabled };
}

/** An ongoing delivery incident: switched off by the worker (not by staff), or its circuit open since `since`. */
export type Incident = { configId: string; kind: 'desativada' | 'circuito-aberto'; since: number };

/**
 * Every configuration in an incident staff must hear of (issue 20 §4): switched off automatically
 * (a 410, or failing too long), or with a circuit opened at least `circuitOpenForMs` ago and not
 * closed since (half-open included: the probe has not succeeded yet).
 */
export async function currentIncidents(db: Knex, now: number, circuitOpenForMs: number): Promise<Incident[]> {
  const [disabled, open] = await Promise.all([
    db('webhook_configs')
      .where('enabled', false)
      .whereNot('disabled_reason', 'manual')
      .whereNotNull('disabled_at')
      .select('id', 'disabled_at'),
    db('webhook_configs')
      .where('enabled', true)
      .whereNotNull('circuit_open_until')
      .andWhere('circuit_opened_at', '<=', now - circuitOpenForMs)
      .select('id', 'circuit_opened_at'),
  ]);
  return [
    ...(disabled as DbRow[]).map((row) => ({ configId: String(row.id), kind: 'desativada' as const, since: toNumber(row.disabled_at) })),
    ...(open as DbRow[]).map((row) => ({
      configId: String(row.id),
      kind: 'circuito-aberto' as const,
      since: toNumber(row.circuit_opened_at),
    })),
  ];
}
