import 'server-only';
import type { Knex } from 'knex';
import { lockForUpdate, toBoolean, toNumber, type DbRow } from '@/lib/db/dialect';
import type { WebhookConfiguration, WebhookEventFlag, WebhookHeader } from './contract';
import { newEncryptedSecret } from './secrets';
import type { CircuitState } from './delivery/circuit';

/** Column of each event flag; the contract's names are too long for portable identifiers. */
export const EVENT_COLUMNS: Record<WebhookEventFlag, string> = {
  eventoAvaliacaoSaudeAprovada: 'ev_aprovada',
  eventoAvaliacaoSaudeAguardandoAprovacao: 'ev_aguardando',
  eventoAvaliacaoSaudeArquivada: 'ev_arquivada',
  eventoAvaliacaoSaudeDesarquivada: 'ev_desarquivada',
  eventoPropostaCancelada: 'ev_proposta_cancelada',
};

/** Whether deliveries go out, and if not, why and since when (issue 10 §3); the receiver's circuit (issue 18). */
export type DeliveryState = {
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: number | null;
  /** Since when every attempt has failed (null: the last one succeeded); the disable-after-a-window rule counts from it. */
  failingSince: number | null;
  circuit: CircuitState;
};

const optionalNumber = (value: unknown) => (value === null || value === undefined ? null : toNumber(value));

export function circuitFromRow(row: DbRow): CircuitState {
  return {
    failures: toNumber(row.circuit_failures ?? 0),
    openUntil: optionalNumber(row.circuit_open_until),
    openedAt: optionalNumber(row.circuit_opened_at),
  };
}

export type StoredWebhook = { config: WebhookConfiguration; version: number; state: DeliveryState };

function fromRow(row: DbRow): StoredWebhook {
  const flags = Object.fromEntries(Object.entries(EVENT_COLUMNS).map(([flag, column]) => [flag, toBoolean(row[column])])) as Record<
    WebhookEventFlag,
    boolean
  >;
  return {
    version: toNumber(row.version),
    state: {
      enabled: toBoolean(row.enabled),
      disabledReason: typeof row.disabled_reason === 'string' ? row.disabled_reason : null,
      disabledAt: optionalNumber(row.disabled_at),
      failingSince: optionalNumber(row.failing_since),
      circuit: circuitFromRow(row),
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

export async function findWebhook(db: Knex | Knex.Transaction, id: string, options: { lock?: boolean } = {}) {
  // By primary key, so at most one row; no .first() (a limit), which Oracle cannot lock FOR UPDATE.
  const query = db('webhook_configs').where({ id });
  const rows = (await (options.lock ? lockForUpdate(db, query) : query)) as DbRow[];
  return rows[0] ? fromRow(rows[0]) : undefined;
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
  const rows = (await query) as DbRow[];
  return rows.map(fromRow);
}

/** The columns a configuration is stored in. */
function toRow(config: WebhookConfiguration, version: number) {
  const flags = Object.fromEntries(Object.entries(EVENT_COLUMNS).map(([flag, column]) => [column, config[flag as WebhookEventFlag]]));
  return {
    id: config.id,
    usuario_id: config.usuarioId,
    sistema_origem: config.sistemaOrigem,
    client_id: config.clientId,
    url: config.url,
    headers_json: JSON.stringify(config.headers),
    ...flags,
    version,
    updated_at: Date.now(),
  };
}

export async function insertWebhook(trx: Knex.Transaction, config: WebhookConfiguration): Promise<void> {
  await trx('webhook_configs').insert({ ...toRow(config, 1), secret_enc: newEncryptedSecret(), enabled: true });
}

const CLOSED_CIRCUIT = { circuit_failures: 0, circuit_open_until: null, circuit_opened_at: null };

/** Switches deliveries on (clearing why they were off, and the circuit) or off (for `reason`); part of the version. */
export async function saveDeliveryState(trx: Knex.Transaction, id: string, enabled: boolean, reason: string | null, now: number) {
  const values = enabled
    ? { enabled: true, disabled_reason: null, disabled_at: null, failing_since: null, ...CLOSED_CIRCUIT }
    : { enabled: false, disabled_reason: reason, disabled_at: now };
  await trx('webhook_configs').where({ id }).update(values);
}

/** Deliveries to this configuration may be attempted again at once (its receiver URL changed). */
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
  return updated === 1;
}

/** The configuration's row (its deliveries go first: deleteDeliveriesOf in the delivery store). */
export async function deleteWebhookRow(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('webhook_configs').where({ id }).delete();
}

/** The signing secret as stored (encrypted: lib/webhooks/secrets.ts opens it). */
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
    await db('webhook_configs')
      .where({ id: String(row.id) })
      .whereNull('secret_enc')
      .update({ secret_enc: newEncryptedSecret() });
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
