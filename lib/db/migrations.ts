import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import type { Knex } from 'knex';
import { signingSecret } from '@/lib/auth/signing-secret';
import { log } from '@/lib/log';

/**
 * Schema migrations as code (not files on disk), so they travel inside the Next build. Names sort
 * in order; never edit one that has shipped, add the next one instead. Column types stay within
 * what SQLite, PostgreSQL and Oracle all store the same way: identifiers are short, JSON is text,
 * instants are epoch milliseconds in bigints.
 */
type Migration = { up(db: Knex): Promise<void>; down(db: Knex): Promise<void> };

const initial: Migration = {
  async up(db) {
    await db.schema.createTable('app_meta', (t) => {
      t.string('meta_key', 64).primary();
      t.string('meta_value', 4000);
    });
    await db.schema.createTable('staff_users', (t) => {
      t.string('id', 36).primary();
      t.string('email', 254).notNullable().unique();
      t.string('name', 200).notNullable();
      t.string('password_hash', 255).notNullable();
      t.string('roles', 200).notNullable();
      t.bigInteger('created_at').notNullable();
    });
    await db.schema.createTable('login_throttle', (t) => {
      t.string('throttle_key', 128).primary();
      t.integer('failures').notNullable();
      t.bigInteger('window_start').notNullable();
      t.bigInteger('locked_until');
    });
    await db.schema.createTable('api_clients', (t) => {
      t.string('client_id', 100).primary();
      t.string('secret_hash', 255).notNullable();
      t.string('name', 200).notNullable();
      t.string('usuario_id', 36).notNullable();
      t.integer('sistema_origem').notNullable();
      t.bigInteger('created_at').notNullable();
    });
    await db.schema.createTable('webhook_configs', (t) => {
      t.string('id', 36).primary();
      t.string('usuario_id', 36).notNullable().index();
      t.integer('sistema_origem').notNullable();
      t.string('client_id', 100);
      t.string('url', 2048).notNullable();
      t.text('headers_json').notNullable();
      t.boolean('ev_aprovada').notNullable();
      t.boolean('ev_aguardando').notNullable();
      t.boolean('ev_arquivada').notNullable();
      t.boolean('ev_desarquivada').notNullable();
      t.boolean('ev_proposta_cancelada').notNullable();
      t.integer('version').notNullable();
      t.bigInteger('updated_at').notNullable();
    });
    await db.schema.createTable('procedures', (t) => {
      t.bigInteger('nr_seq_proc_interno').primary();
      t.string('description', 200).notNullable();
      t.integer('default_minutes').notNullable();
      t.boolean('requires_side').notNullable();
    });
    await db.schema.createTable('agendas', (t) => {
      t.bigInteger('cd_agenda').primary();
    });
    await db.schema.createTable('slots', (t) => {
      t.bigInteger('nr_seq_agenda').primary();
      t.bigInteger('cd_agenda').notNullable().index();
      t.string('start_iso', 40).notNullable();
      t.bigInteger('start_ms').notNullable().index();
      t.integer('minutes').notNullable();
    });
    await db.schema.createTable('reservations', (t) => {
      t.string('token', 32).primary();
      t.bigInteger('nr_seq_agenda').notNullable().index();
      t.bigInteger('cd_agenda').notNullable();
      t.bigInteger('start_ms').notNullable();
      t.bigInteger('end_ms').notNullable();
      t.bigInteger('nr_seq_proc_interno').notNullable();
      t.bigInteger('cd_pessoa_fisica').notNullable();
      t.string('ie_lado', 1);
      t.bigInteger('cd_convenio').notNullable();
      t.bigInteger('cd_categoria').notNullable();
      t.bigInteger('cd_plano').notNullable();
      t.string('cd_usuario_convenio', 40).notNullable();
      t.string('nm_usuario', 30).notNullable();
      t.string('status', 10).notNullable();
      t.bigInteger('reserved_at').notNullable();
      t.bigInteger('released_at');
      t.index(['cd_agenda', 'status']);
      t.index(['cd_pessoa_fisica', 'nr_seq_proc_interno', 'status']);
    });
    await db.schema.createTable('audit_events', (t) => {
      t.string('id', 36).primary();
      t.bigInteger('at_ms').notNullable().index();
      t.string('actor_kind', 20).notNullable();
      t.string('actor_id', 200).notNullable();
      t.string('action', 40).notNullable();
      t.string('target', 100).notNullable();
      t.string('outcome', 40).notNullable();
      t.integer('http_status');
      t.text('before_json');
      t.text('after_json');
    });
    await db.schema.createTable('idempotency_keys', (t) => {
      t.string('owner', 200).notNullable();
      t.string('idem_key', 255).notNullable();
      t.string('request_hash', 64).notNullable();
      t.string('state', 12).notNullable();
      t.integer('http_status');
      t.text('response_json');
      t.bigInteger('created_at').notNullable().index();
      t.primary(['owner', 'idem_key']);
    });
  },
  async down(db) {
    for (const table of [
      'idempotency_keys',
      'audit_events',
      'reservations',
      'slots',
      'agendas',
      'procedures',
      'webhook_configs',
      'api_clients',
      'login_throttle',
      'staff_users',
      'app_meta',
    ]) {
      await db.schema.dropTableIfExists(table);
    }
  },
};

/**
 * Rule 5 (one active reservation per beneficiary and procedure) must hold when two reservations of
 * the same beneficiary race on different agendas, whose locks do not exclude each other. A unique
 * key set only while a reservation is active makes the database refuse the second one. NULLs are
 * not compared by unique indexes in SQLite, PostgreSQL or Oracle, so released rows never collide.
 */
const oneActiveBooking: Migration = {
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

/**
 * Reservations belong to the tenant that made them, and holds expire (issue 9).
 * - `reservations` (the embedded scheduler's own data) gets its `owner` (ownerKey of the caller), so
 *   a release checks it in the same transaction, and `expires_at` (NULL: never). Rows made before
 *   have no owner: only staff acting for the hospital can release them.
 * - `reservation_log` is the read model of the recent-reservations list on every back-end, written
 *   by the service after the back-end answers. Patient identifiers are stored masked only. It
 *   starts empty: the audit trail does not hold the owner (issuer and usuarioId) of old entries.
 */
const reservationOwnership: Migration = {
  async up(db) {
    await db.schema.alterTable('reservations', (t) => {
      t.string('owner', 200);
      t.bigInteger('expires_at');
      t.index(['owner', 'status'], 'reservations_owner_status_ix');
    });
    await db.schema.createTable('reservation_log', (t) => {
      t.string('id', 36).primary();
      t.string('token', 32).notNullable().index('reservation_log_token_ix');
      t.string('owner', 200).notNullable();
      t.string('actor_id', 200).notNullable();
      t.string('state', 10).notNullable();
      t.bigInteger('nr_seq_agenda').notNullable();
      t.bigInteger('nr_seq_proc_interno').notNullable();
      t.integer('nr_min_duracao').notNullable();
      t.string('ie_lado', 1);
      t.bigInteger('cd_convenio').notNullable();
      t.bigInteger('cd_categoria').notNullable();
      t.bigInteger('cd_plano').notNullable();
      t.string('nm_usuario', 30).notNullable();
      t.string('cd_pessoa_fisica_masked', 40).notNullable();
      t.string('cd_usuario_convenio_masked', 40).notNullable();
      t.bigInteger('created_at').notNullable().index('reservation_log_created_ix');
      t.bigInteger('released_at');
      t.bigInteger('expires_at');
      t.index(['owner', 'state'], 'reservation_log_owner_state_ix');
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('reservation_log');
    await db.schema.alterTable('reservations', (t) => {
      t.dropIndex(['owner', 'status'], 'reservations_owner_status_ix');
      t.dropColumn('expires_at');
      t.dropColumn('owner');
    });
  },
};

/**
 * Webhook deliveries (issue 10).
 * - `webhook_configs` gets its signing secret (encrypted; the previous one during a rotation's
 *   overlap), an enabled flag with the reason and time it was switched off, and `failing_since`
 *   (first failed attempt since the last success) for the automatic disable. Existing rows get
 *   their secret when the app opens the database (lib/webhooks/secrets.ts): encrypting needs the
 *   app's key, which migrations do not hold.
 * - `api_clients.scopes`: the OAuth scopes a client may request (space-separated).
 * - `webhook_events`: what a producer published; (producer, id_evento) makes a resend idempotent.
 * - `webhook_deliveries`: one per event and configuration, with its state machine, the lease of the
 *   instance sending it, and the last answer; `webhook_attempts`: every attempt.
 */
const webhookDeliveries: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_configs', (t) => {
      t.string('secret_enc', 300);
      t.string('previous_secret_enc', 300);
      t.bigInteger('previous_secret_until');
      t.boolean('enabled').notNullable().defaultTo(true);
      t.string('disabled_reason', 40);
      t.bigInteger('disabled_at');
      t.bigInteger('failing_since');
    });
    await db.schema.alterTable('api_clients', (t) => {
      t.string('scopes', 500).notNullable().defaultTo('webhooks scheduling');
    });
    await db.schema.createTable('webhook_events', (t) => {
      t.string('id', 40).primary();
      t.string('producer', 200).notNullable();
      t.string('id_evento', 100);
      t.string('tipo', 60).notNullable();
      t.string('usuario_id', 36).notNullable();
      t.text('dados_json').notNullable();
      t.bigInteger('created_at').notNullable();
      t.unique(['producer', 'id_evento'], { indexName: 'webhook_events_producer_uq' });
    });
    await db.schema.createTable('webhook_deliveries', (t) => {
      t.string('id', 40).primary();
      t.string('event_id', 40).notNullable();
      t.string('config_id', 36).notNullable();
      t.string('status', 12).notNullable();
      t.integer('attempts').notNullable();
      t.bigInteger('created_at').notNullable();
      t.bigInteger('next_attempt_at');
      t.string('lease_owner', 64);
      t.bigInteger('lease_until');
      t.bigInteger('last_attempt_at');
      t.integer('last_status');
      t.integer('last_duration_ms');
      t.string('last_body', 1024);
      t.string('last_error', 40);
      t.index(['status', 'next_attempt_at'], 'webhook_deliveries_due_ix');
      t.index(['config_id', 'created_at'], 'webhook_deliveries_config_ix');
    });
    await db.schema.createTable('webhook_attempts', (t) => {
      t.string('id', 40).primary();
      t.string('delivery_id', 40).notNullable().index('webhook_attempts_delivery_ix');
      t.integer('attempt_no').notNullable();
      t.bigInteger('started_at').notNullable();
      t.integer('duration_ms').notNullable();
      t.integer('status');
      t.string('body_excerpt', 1024);
      t.string('error', 40);
      t.text('request_headers_json').notNullable();
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('webhook_attempts');
    await db.schema.dropTableIfExists('webhook_deliveries');
    await db.schema.dropTableIfExists('webhook_events');
    await db.schema.alterTable('api_clients', (t) => t.dropColumn('scopes'));
    await db.schema.alterTable('webhook_configs', (t) => {
      for (const column of [
        'secret_enc',
        'previous_secret_enc',
        'previous_secret_until',
        'enabled',
        'disabled_reason',
        'disabled_at',
        'failing_since',
      ]) {
        t.dropColumn(column);
      }
    });
  },
};

/**
 * API clients managed in the console (issue 11 §2): revocation, when each last obtained a token,
 * and the previous secret's hash while a rotation's overlap lasts.
 */
const apiClientLifecycle: Migration = {
  async up(db) {
    await db.schema.alterTable('api_clients', (t) => {
      t.bigInteger('revoked_at');
      t.bigInteger('last_token_at');
      t.string('previous_secret_hash', 255);
      t.bigInteger('previous_secret_until');
    });
  },
  async down(db) {
    await db.schema.alterTable('api_clients', (t) => {
      for (const column of ['revoked_at', 'last_token_at', 'previous_secret_hash', 'previous_secret_until']) t.dropColumn(column);
    });
  },
};

/**
 * Staff accounts managed in the console (issue 11 §1): disabling, and the one-time link that sets
 * a password (its SHA-256 only, and when it expires). A user created without a password has the
 * unusable hash `!` until the link is used.
 */
const staffLifecycle: Migration = {
  async up(db) {
    await db.schema.alterTable('staff_users', (t) => {
      t.bigInteger('disabled_at');
      t.string('password_token_hash', 64);
      t.bigInteger('password_token_expires');
    });
  },
  async down(db) {
    await db.schema.alterTable('staff_users', (t) => {
      for (const column of ['disabled_at', 'password_token_hash', 'password_token_expires']) t.dropColumn(column);
    });
  },
};

/**
 * Staff single sign-on (issue 11 §4): the identity provider's issuer and subject of the person an
 * account belongs to, so a changed e-mail at the provider still finds the same account.
 */
const staffSso: Migration = {
  async up(db) {
    await db.schema.alterTable('staff_users', (t) => {
      t.string('sso_subject', 512).unique();
    });
  },
  async down(db) {
    await db.schema.alterTable('staff_users', (t) => {
      t.dropUnique(['sso_subject']);
      t.dropColumn('sso_subject');
    });
  },
};

/**
 * Delivery isolation and lifecycle (issue 18).
 * - `webhook_configs` gets its circuit breaker: consecutive outage attempts, until when it is open
 *   (then one probe), and when the current incident opened it.
 * - Claims look for each configuration's oldest due deliveries (config_id, status,
 *   next_attempt_at), which also answers what (status, next_attempt_at) did, so that one goes: every
 *   index on webhook_deliveries is paid for by each event's fan-out of inserts.
 * - Attempts in flight are counted by live lease: an index of leased rows only (partial on SQLite
 *   and PostgreSQL; Oracle leaves rows whose key is null out of an index anyway).
 * - Retention deletes events by age (created_at) and their deliveries by event (event_id).
 */
const deliveryIsolation: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_configs', (t) => {
      t.integer('circuit_failures').notNullable().defaultTo(0);
      t.bigInteger('circuit_open_until');
      t.bigInteger('circuit_opened_at');
    });
    await db.schema.alterTable('webhook_deliveries', (t) => {
      t.index(['config_id', 'status', 'next_attempt_at'], 'webhook_deliveries_config_due_ix');
      t.dropIndex(['status', 'next_attempt_at'], 'webhook_deliveries_due_ix');
      t.index(['lease_until'], 'webhook_deliveries_lease_ix', { predicate: db.whereNotNull('lease_until') });
      t.index(['event_id'], 'webhook_deliveries_event_ix');
    });
    await db.schema.alterTable('webhook_events', (t) => {
      t.index(['created_at'], 'webhook_events_created_ix');
    });
  },
  async down(db) {
    await db.schema.alterTable('webhook_events', (t) => t.dropIndex(['created_at'], 'webhook_events_created_ix'));
    await db.schema.alterTable('webhook_deliveries', (t) => {
      t.dropIndex(['config_id', 'status', 'next_attempt_at'], 'webhook_deliveries_config_due_ix');
      t.index(['status', 'next_attempt_at'], 'webhook_deliveries_due_ix');
      t.dropIndex(['lease_until'], 'webhook_deliveries_lease_ix');
      t.dropIndex(['event_id'], 'webhook_deliveries_event_ix');
    });
    await db.schema.alterTable('webhook_configs', (t) => {
      for (const column of ['circuit_failures', 'circuit_open_until', 'circuit_opened_at']) t.dropColumn(column);
    });
  },
};

/**
 * Delivery health (issue 20): the console charts each configuration's attempts hour by hour, so
 * an attempt names its configuration (copied from its delivery, which never changes it) and is
 * indexed by configuration and time. One index: each attempt's insert pays for it.
 */
const attemptHealth: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_attempts', (t) => t.string('config_id', 36));
    await db('webhook_attempts').update({
      config_id: db('webhook_deliveries')
        .select('config_id')
        .whereRaw('?? = ??', ['webhook_deliveries.id', 'webhook_attempts.delivery_id']),
    });
    await db.schema.alterTable('webhook_attempts', (t) => t.index(['config_id', 'started_at'], 'webhook_attempts_health_ix'));
  },
  async down(db) {
    await db.schema.alterTable('webhook_attempts', (t) => {
      t.dropIndex(['config_id', 'started_at'], 'webhook_attempts_health_ix');
      t.dropColumn('config_id');
    });
  },
};

/**
 * Delivery alerts (issue 20 §4): one row per incident — a configuration switched off by the
 * worker, or its circuit open too long — keyed by when the incident began, so every instance that
 * notices it inserts the same key and only one succeeds: staff are told once per incident.
 */
const webhookAlerts: Migration = {
  async up(db) {
    await db.schema.createTable('webhook_alerts', (t) => {
      t.string('id', 40).primary();
      t.string('config_id', 36).notNullable();
      t.string('kind', 20).notNullable();
      t.bigInteger('incident_at').notNullable();
      t.bigInteger('created_at').notNullable();
      t.integer('emailed').notNullable().defaultTo(0);
      t.bigInteger('resolved_at');
      t.unique(['config_id', 'kind', 'incident_at'], { indexName: 'webhook_alerts_incident_uq' });
      t.index(['resolved_at'], 'webhook_alerts_open_ix');
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('webhook_alerts');
  },
};

/**
 * Tenants of the delivery engine (issue 27): one row per usuarioId with webhook configurations, the
 * row a claim locks (SKIP LOCKED) on PostgreSQL and Oracle so that one instance at a time claims for
 * a tenant, and its attempts in flight, counted under that lock, stay within the tenant's cap across
 * instances. Rows are added as events are queued; none is ever deleted.
 */
const deliveryTenants: Migration = {
  async up(db) {
    await db.schema.createTable('webhook_tenants', (t) => {
      t.string('usuario_id', 36).primary();
    });
    await db.raw('insert into ?? (??) select distinct ?? from ??', ['webhook_tenants', 'usuario_id', 'usuario_id', 'webhook_configs']);
  },
  async down(db) {
    await db.schema.dropTableIfExists('webhook_tenants');
  },
};

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

const auditTokenMasks: Migration = {
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

/**
 * Staff session versions (issue 27 §7): every console session carries the version its account had
 * when it was signed in (lib/auth/staff-session.ts), and is refused once the account's differs. A
 * password change or reset, disabling, or linking to single sign-on bumps it: every other session
 * ends at its next request. Existing accounts start at 0, as sessions without the claim count.
 */
const staffSessionVersion: Migration = {
  async up(db) {
    await db.schema.alterTable('staff_users', (t) => {
      t.integer('session_version').notNullable().defaultTo(0);
    });
  },
  async down(db) {
    await db.schema.alterTable('staff_users', (t) => t.dropColumn('session_version'));
  },
};

/**
 * Tenant quotas (issue 27): events by producer and time, so the publish rate reads a producer's
 * last second through it, however many events it published before. (A configuration create locks
 * its tenant's webhook_tenants row, 011, before counting: MAX_WEBHOOKS_PER_TENANT holds across
 * instances.)
 */
const tenantQuotas: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_events', (t) => t.index(['producer', 'created_at'], 'webhook_events_producer_ix'));
  },
  async down(db) {
    await db.schema.alterTable('webhook_events', (t) => t.dropIndex(['producer', 'created_at'], 'webhook_events_producer_ix'));
  },
};

/**
 * Event subscriptions as data (issue 28): a row per configuration and event it receives, in place
 * of a boolean column per event, so a new event type needs no migration. `event_type` holds the
 * contract's flag name (eventoAvaliacaoSaudeAprovada…), the publish's `tipo`. The names and columns
 * below are the shipped ones of 001, written out: a shipped migration does not change with the code.
 */
const SUBSCRIPTION_COLUMNS: Record<string, string> = {
  eventoAvaliacaoSaudeAprovada: 'ev_aprovada',
  eventoAvaliacaoSaudeAguardandoAprovacao: 'ev_aguardando',
  eventoAvaliacaoSaudeArquivada: 'ev_arquivada',
  eventoAvaliacaoSaudeDesarquivada: 'ev_desarquivada',
  eventoPropostaCancelada: 'ev_proposta_cancelada',
};

const webhookSubscriptions: Migration = {
  async up(db) {
    await db.schema.createTable('webhook_subscriptions', (t) => {
      t.string('config_id', 36).notNullable();
      t.string('event_type', 60).notNullable();
      t.primary(['config_id', 'event_type']);
    });
    for (const [eventType, column] of Object.entries(SUBSCRIPTION_COLUMNS)) {
      await db.raw('insert into ?? (??, ??) select ??, ? from ?? where ?? = ?', [
        'webhook_subscriptions',
        'config_id',
        'event_type',
        'id',
        eventType,
        'webhook_configs',
        column,
        true,
      ]);
    }
    await db.schema.alterTable('webhook_configs', (t) => t.dropColumns(...Object.values(SUBSCRIPTION_COLUMNS)));
  },
  async down(db) {
    await db.schema.alterTable('webhook_configs', (t) => {
      for (const column of Object.values(SUBSCRIPTION_COLUMNS)) t.boolean(column).notNullable().defaultTo(false);
    });
    for (const [eventType, column] of Object.entries(SUBSCRIPTION_COLUMNS)) {
      await db('webhook_configs')
        .whereIn('id', db('webhook_subscriptions').where({ event_type: eventType }).select('config_id'))
        .update({ [column]: true });
    }
    await db.schema.dropTableIfExists('webhook_subscriptions');
  },
};

/**
 * Delivery controls (issue 31): a configuration's rate limit (attempts a second, and its pacing's
 * theoretical arrival time, pacing.ts), ordered delivery, and a pause its receiver asked for (a 429
 * or 503 with Retry-After). Ordered delivery reads a configuration's oldest pending delivery
 * through (config_id, status, created_at).
 */
const deliveryControls: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_configs', (t) => {
      t.integer('rate_limit_per_second');
      t.double('rate_tat');
      t.boolean('ordered').notNullable().defaultTo(false);
      t.bigInteger('paused_until');
    });
    await db.schema.alterTable('webhook_deliveries', (t) =>
      t.index(['config_id', 'status', 'created_at'], 'webhook_deliveries_config_order_ix'),
    );
  },
  async down(db) {
    await db.schema.alterTable('webhook_deliveries', (t) =>
      t.dropIndex(['config_id', 'status', 'created_at'], 'webhook_deliveries_config_order_ix'),
    );
    await db.schema.alterTable('webhook_configs', (t) => t.dropColumns('rate_limit_per_second', 'rate_tat', 'ordered', 'paused_until'));
  },
};

/**
 * Operational notifications (issue 31 §3): a configuration's technical contact, e-mailed when the
 * worker switches it off and when it is back. Nothing else is stored: the operator's receiver is an
 * ordinary configuration, its operational subscriptions are webhook_subscriptions rows.
 */
const operationalNotifications: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_configs', (t) => t.string('contact_email', 254));
  },
  async down(db) {
    await db.schema.alterTable('webhook_configs', (t) => t.dropColumn('contact_email'));
  },
};

/**
 * Broker destinations (issue 29): the credentials a broker target is reached with, a
 * secret of the configuration, encrypted as its signing secret is (lib/webhooks/secrets.ts).
 */
const brokerCredentials: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_configs', (t) => t.string('broker_credentials_enc', 2000));
  },
  async down(db) {
    await db.schema.alterTable('webhook_configs', (t) => t.dropColumn('broker_credentials_enc'));
  },
};

/**
 * The partner portal (issue 30): single-use links staff or a tenant's API client issue, and the
 * sessions they open. Only SHA-256 hashes of a link's token and of a session's cookie are kept, so
 * a copy of the database opens nothing. `id` is the public handle staff list and revoke them by.
 */
const partnerPortal: Migration = {
  async up(db) {
    await db.schema.createTable('portal_links', (t) => {
      t.string('id', 36).primary();
      t.string('token_hash', 64).notNullable().unique();
      t.string('usuario_id', 36).notNullable();
      t.integer('sistema_origem').notNullable();
      t.boolean('read_only').notNullable().defaultTo(false);
      t.string('issued_by', 200).notNullable();
      t.bigInteger('created_at').notNullable();
      t.bigInteger('expires_at').notNullable();
      t.bigInteger('used_at');
      t.bigInteger('revoked_at');
      t.index(['usuario_id', 'expires_at'], 'portal_links_tenant_ix');
    });
    await db.schema.createTable('portal_sessions', (t) => {
      t.string('id', 36).primary();
      t.string('session_hash', 64).notNullable().unique();
      t.string('link_id', 36).notNullable();
      t.string('usuario_id', 36).notNullable();
      t.integer('sistema_origem').notNullable();
      t.boolean('read_only').notNullable().defaultTo(false);
      t.bigInteger('created_at').notNullable();
      t.bigInteger('expires_at').notNullable();
      t.bigInteger('revoked_at');
      t.index(['usuario_id', 'expires_at'], 'portal_sessions_tenant_ix');
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('portal_sessions');
    await db.schema.dropTableIfExists('portal_links');
  },
};

/**
 * Bound ciphertexts (issue 43): signing secrets and broker logins were sealed (AES-256-GCM,
 * lib/webhooks/secrets.ts) with no associated data, so a value moved into another column or row
 * still opened, a broker password read back through the signing-secret operation. Each is sealed
 * again (format v2) bound to its purpose and its configuration, which refuses a moved value. The
 * cipher is copied here, not imported: a shipped migration must not change when the feature's
 * does. A value that does not open (AUTH_SECRET changed since it was sealed) is left as it is,
 * unreadable as before, and counted in the log. Down seals them unbound again (v1).
 */
const SEALED_COLUMNS = {
  secret_enc: 'webhook-signing-secret',
  previous_secret_enc: 'webhook-signing-secret',
  broker_credentials_enc: 'broker-credentials',
} as const;
type SealedColumn = keyof typeof SEALED_COLUMNS;
type SealFormat = 'v1' | 'v2';

let sealingKey: KeyObject | undefined;
function sealKey(): KeyObject {
  sealingKey ??= createSecretKey(Buffer.from(hkdfSync('sha256', signingSecret(), 'integration-console', 'webhook-signing-secrets', 32)));
  return sealingKey;
}

/** The associated data of a v2 value: its purpose and configuration; v1 had none. */
function sealedAad(format: SealFormat, column: SealedColumn, configId: string): Buffer | undefined {
  return format === 'v2' ? Buffer.from(`${SEALED_COLUMNS[column]}:${configId}`, 'utf8') : undefined;
}

function sealValue(format: SealFormat, clear: string, aad: Buffer | undefined): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(), iv);
  if (aad) cipher.setAAD(aad);
  const sealed = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
  return [format, iv.toString('base64url'), sealed.toString('base64url'), cipher.getAuthTag().toString('base64url')].join(':');
}

function openValue(stored: string, aad: Buffer | undefined): string | undefined {
  const [, iv, sealed, tag] = stored.split(':');
  if (!iv || !sealed || !tag) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealKey(), Buffer.from(iv, 'base64url'));
    if (aad) decipher.setAAD(aad);
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** Every sealed value in format `from` sealed again in format `to`, by pages of 500 configurations. */
async function reseal(db: Knex, from: SealFormat, to: SealFormat): Promise<void> {
  const columns = Object.keys(SEALED_COLUMNS) as SealedColumn[];
  let after = '';
  let unreadable = 0;
  for (;;) {
    const rows: Record<string, unknown>[] = await db('webhook_configs')
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .select('id', ...columns);
    if (rows.length === 0) break;
    for (const row of rows) {
      const id = String(row.id);
      const changes: Partial<Record<SealedColumn, string>> = {};
      for (const column of columns) {
        const value = row[column];
        if (typeof value !== 'string' || !value.startsWith(`${from}:`)) continue;
        const clear = openValue(value, sealedAad(from, column, id));
        if (clear === undefined) unreadable++;
        else changes[column] = sealValue(to, clear, sealedAad(to, column, id));
      }
      if (Object.keys(changes).length > 0) await db('webhook_configs').where({ id }).update(changes);
    }
    after = String(rows.at(-1)!.id);
  }
  if (unreadable > 0) log.warn('db.ciphertexts_unreadable', { count: unreadable, docs: 'docs/production.md, AUTH_SECRET' });
}

const boundCiphertexts: Migration = {
  up: (db) => reseal(db, 'v1', 'v2'),
  down: (db) => reseal(db, 'v2', 'v1'),
};

/**
 * Contact confirmation (issue 43): a technical contact (contact_email) gets notices only once its
 * owner confirmed it from the link of the one e-mail sent when it is set. The link's token is kept
 * as its SHA-256 hash, with its end of life. Contacts stored before start unconfirmed: set again,
 * each gets its confirmation e-mail.
 */
const contactConfirmation: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_configs', (t) => {
      t.bigInteger('contact_confirmed_at');
      t.string('contact_token_hash', 64);
      t.bigInteger('contact_token_expires');
      t.index(['contact_token_hash'], 'webhook_configs_contact_token_ix');
    });
  },
  async down(db) {
    await db.schema.alterTable('webhook_configs', (t) => {
      t.dropIndex(['contact_token_hash'], 'webhook_configs_contact_token_ix');
      t.dropColumn('contact_token_expires');
      t.dropColumn('contact_token_hash');
      t.dropColumn('contact_confirmed_at');
    });
  },
};

/**
 * The scheduling waitlist (issue 48): a tenant's entries for an exam, the offers of freed slots
 * made to them, and each exam's turns between tenants (lib/waitlist). An offer's `active_slot` is
 * its slot while it is being reserved or is out, null once it ends: the unique key lets one offer
 * at a time hold a slot, across instances.
 */
const waitlist: Migration = {
  async up(db) {
    await db.schema.createTable('waitlist_entries', (t) => {
      t.string('id', 36).primary();
      t.string('usuario_id', 36).notNullable();
      t.string('owner', 200).notNullable();
      t.string('created_by', 254).notNullable();
      t.bigInteger('nr_seq_proc_interno').notNullable();
      t.string('ie_lado', 1);
      t.integer('nr_min_duracao').notNullable();
      t.string('agendas_json', 2000);
      t.bigInteger('window_from').notNullable();
      t.bigInteger('window_to').notNullable();
      t.bigInteger('cd_pessoa_fisica').notNullable();
      t.integer('cd_convenio').notNullable();
      t.integer('cd_categoria').notNullable();
      t.integer('cd_plano').notNullable();
      t.string('cd_usuario_convenio', 40).notNullable();
      t.string('nm_usuario', 30).notNullable();
      t.string('status', 20).notNullable();
      t.double('position').notNullable();
      t.bigInteger('retry_at');
      t.bigInteger('created_at').notNullable();
      t.bigInteger('updated_at').notNullable();
      t.index(['nr_seq_proc_interno', 'status', 'position'], 'waitlist_entries_line_ix');
      t.index(['usuario_id', 'status'], 'waitlist_entries_tenant_ix');
    });
    await db.schema.createTable('waitlist_offers', (t) => {
      t.string('id', 36).primary();
      t.string('entry_id', 36).notNullable().index('waitlist_offers_entry_ix');
      t.string('usuario_id', 36).notNullable();
      t.bigInteger('nr_seq_agenda').notNullable();
      t.bigInteger('active_slot').unique('waitlist_offers_active_slot_uq');
      t.bigInteger('cd_agenda').notNullable();
      t.string('dt_agenda', 40).notNullable();
      t.string('token', 64);
      t.string('status', 20).notNullable();
      // While `liberando`: what the offer becomes once its slot is released (recusada, expirada, removida).
      t.string('release_as', 20);
      t.string('lease_owner', 64);
      t.bigInteger('lease_until');
      t.bigInteger('deadline');
      // Whether the event of the offer's current state is published (lib/waitlist/announce.ts).
      t.boolean('announced').notNullable().defaultTo(true);
      t.bigInteger('created_at').notNullable();
      t.bigInteger('ended_at');
      t.index(['status', 'deadline'], 'waitlist_offers_status_ix');
    });
    await db.schema.createTable('waitlist_turns', (t) => {
      t.bigInteger('nr_seq_proc_interno').notNullable();
      t.string('usuario_id', 36).notNullable();
      t.bigInteger('last_offer_at').notNullable();
      t.primary(['nr_seq_proc_interno', 'usuario_id']);
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('waitlist_turns');
    await db.schema.dropTableIfExists('waitlist_offers');
    await db.schema.dropTableIfExists('waitlist_entries');
  },
};

/**
 * Deliveries under load (issue 45): a rate-limited configuration's send pacing (pacing.ts), the
 * slot its next request may leave in, taken as the request leaves rather than at the claim; an
 * ended incident whose receiver has not yet delivered again (`configuracao.recuperada` waits for
 * that delivery); a delivery's current run of failures (since when an ordered head holds the
 * others, given up after WEBHOOK_ORDERED_HOLD_MINUTES); the probes of an open circuit that went
 * before the delivery was due (they do not use up its retry schedule); and an index that covers the
 * health and triage figures' reads of webhook_attempts.
 */
const deliveryUnderLoad: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_configs', (t) => t.double('rate_sent_tat'));
    await db.schema.alterTable('webhook_alerts', (t) => t.bigInteger('awaiting_delivery_since'));
    await db.schema.alterTable('webhook_deliveries', (t) => {
      t.bigInteger('failing_since');
      t.integer('early_probes').notNullable().defaultTo(0);
    });
    // The health and triage figures (statistics.ts, hourlyAttempts) read every attempt of a range:
    // an index that covers what they read answers them without a lookup of each attempt's row, so
    // their cost follows the attempts in the range, not the table's size. Same prefix as the index
    // it replaces (a configuration's latest attempt, its first delivered one).
    await db.schema.alterTable('webhook_attempts', (t) => {
      t.index(['config_id', 'started_at', 'error', 'duration_ms'], 'webhook_attempts_health_cover_ix');
    });
    await db.schema.alterTable('webhook_attempts', (t) => t.dropIndex(['config_id', 'started_at'], 'webhook_attempts_health_ix'));
  },
  async down(db) {
    await db.schema.alterTable('webhook_attempts', (t) => t.index(['config_id', 'started_at'], 'webhook_attempts_health_ix'));
    await db.schema.alterTable('webhook_attempts', (t) =>
      t.dropIndex(['config_id', 'started_at', 'error', 'duration_ms'], 'webhook_attempts_health_cover_ix'),
    );
    await db.schema.alterTable('webhook_deliveries', (t) => t.dropColumns('failing_since', 'early_probes'));
    await db.schema.alterTable('webhook_alerts', (t) => t.dropColumn('awaiting_delivery_since'));
    await db.schema.alterTable('webhook_configs', (t) => t.dropColumn('rate_sent_tat'));
  },
};

/**
 * Payload control (issue 46): a configuration's content filter and field rules (JSON) and its
 * transformation (code), and each attempt's body as sent (minimised and transformed, so the log
 * shows what the receiver got). Filtered deliveries are rows with status `filtrada`: no new column.
 */
const payloadControl: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_configs', (t) => {
      t.text('payload_filter_json');
      t.text('payload_fields_json');
      t.text('payload_transform');
    });
    await db.schema.alterTable('webhook_attempts', (t) => t.text('request_body'));
  },
  async down(db) {
    await db.schema.alterTable('webhook_attempts', (t) => t.dropColumn('request_body'));
    await db.schema.alterTable('webhook_configs', (t) => t.dropColumns('payload_filter_json', 'payload_fields_json', 'payload_transform'));
  },
};

/**
 * One-click release from the console's recent reservations (issue 47): a reservation staff make
 * keeps what its release (CR) needs and the log does not (the patient's identifiers), sealed
 * (lib/auth/sealing.ts) and bound to its row. The column is cleared once the reservation is no
 * longer releasable: released, or its hold lapsed.
 */
const releaseIdentifiers: Migration = {
  async up(db) {
    await db.schema.alterTable('reservation_log', (t) => t.text('release_sealed'));
  },
  async down(db) {
    await db.schema.alterTable('reservation_log', (t) => t.dropColumn('release_sealed'));
  },
};

const migrations: Record<string, Migration> = {
  '001_initial': initial,
  '002_one_active_booking': oneActiveBooking,
  '003_reservation_ownership': reservationOwnership,
  '004_webhook_deliveries': webhookDeliveries,
  '005_api_client_lifecycle': apiClientLifecycle,
  '006_staff_lifecycle': staffLifecycle,
  '007_staff_sso': staffSso,
  '008_delivery_isolation': deliveryIsolation,
  '009_attempt_health': attemptHealth,
  '010_webhook_alerts': webhookAlerts,
  '011_delivery_tenants': deliveryTenants,
  '012_audit_token_masks': auditTokenMasks,
  '013_staff_session_version': staffSessionVersion,
  '014_tenant_quotas': tenantQuotas,
  '015_webhook_subscriptions': webhookSubscriptions,
  '016_delivery_controls': deliveryControls,
  '017_operational_notifications': operationalNotifications,
  '018_broker_credentials': brokerCredentials,
  '019_partner_portal': partnerPortal,
  '020_bound_ciphertexts': boundCiphertexts,
  '021_contact_confirmation': contactConfirmation,
  '022_delivery_under_load': deliveryUnderLoad,
  '023_payload_control': payloadControl,
  '024_waitlist': waitlist,
  '025_release_identifiers': releaseIdentifiers,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: () => Promise.resolve(Object.keys(migrations).sort()),
  getMigrationName: (name) => name,
  getMigration: (name) => {
    const migration = migrations[name];
    return migration ? Promise.resolve(migration) : Promise.reject(new Error(`Unknown migration ${name}`));
  },
};
