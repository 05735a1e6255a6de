// The yardstick of `npm run bench`: a plain node:http server doing exactly the reservation API's
// work and nothing else. Per request: the same HS256 access-token check as the product's
// (lib/auth/hs256.ts, node:crypto's HMAC: typ, iss, aud, lifetime; the client's state cached 30 s),
// the body read and JSON.parse, the same zod schema (lib/scheduling/contract.ts), and one SQLite
// transaction with the embedded scheduler's own reads, its reservation insert or release update,
// the audit row (identifiers and tokens masked, as the service writes it) and the reservation-log
// row, on the product's own database file at WAL and
// synchronous=FULL, committed as the product commits (lib/db/direct-transaction.ts): the requests
// of one event-loop turn in one transaction, each in a savepoint of its own, one durable COMMIT for
// them all, and every answer after that COMMIT.
// The webhook PUT gets the same treatment: token, schema (lib/webhooks/configurations/contract.ts), one transaction
// reading, updating and auditing the configuration, committed on its own as the product's is.
// run.mjs bundles it with esbuild, as the lean API server is bundled, and runs it with node:
//   PORT=… DATA_DIR=… node .bench/raw-server.mjs
import http from 'node:http';
import path from 'node:path';
import fs from 'node:fs';
import { createSecretKey, randomBytes, randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { slotReservationSchema, CODIGO_P_STATUS, type SlotReservationRequest } from '@/lib/scheduling/contract';
import { EVENT_TYPE_OF_FLAG, WEBHOOK_EVENT_FLAGS } from '@/lib/webhooks/events/types';
import { webhookUpdateSchema } from '@/lib/webhooks/configurations/contract';
import { ownerKey, type ApiClientPrincipal } from '@/lib/auth/principal';
import { maskIdentifier, maskToken } from '@/lib/audit/masking';
import { activeBookingKey } from '@/lib/scheduling/active-booking';
import { verifyHs256 } from '@/lib/auth/hs256';

const dataDir = process.env.DATA_DIR!;
const db = new Database(path.join(dataDir, 'integration-console.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');
const key = createSecretKey(Buffer.from(fs.readFileSync(path.join(dataDir, 'auth-secret'), 'utf8').trim()));

const TTL = 900;
function principalOf(request: http.IncomingMessage): ApiClientPrincipal | undefined {
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('Bearer ')) return undefined;
  const payload = verifyHs256(header.slice(7), {
    key,
    typ: 'at+jwt',
    issuer: 'integration-console',
    audience: 'integration-api',
    requiredClaims: ['exp', 'iat', 'sub'],
    maxTokenAge: TTL + 30,
    clockToleranceSeconds: 30,
  });
  if (!payload || payload.exp! - payload.iat! > TTL || !clientActive(String(payload.sub))) return undefined;
  return {
    kind: 'api-client',
    issuer: 'embedded',
    clientId: String(payload.sub),
    usuarioId: String(payload.usuarioId),
    sistemaOrigem: Number(payload.sistemaOrigem),
    scopes: String(payload.scope).split(' '),
  };
}

const clientState = new Map<string, { active: boolean; until: number }>();
const clientRow = db.prepare('SELECT revoked_at FROM api_clients WHERE client_id = ?');
function clientActive(clientId: string): boolean {
  const cached = clientState.get(clientId);
  if (cached && cached.until > Date.now()) return cached.active;
  const row = clientRow.get(clientId) as { revoked_at: number | null } | undefined;
  const active = row !== undefined && row.revoked_at === null;
  clientState.set(clientId, { active, until: Date.now() + 30_000 });
  return active;
}

const HOLDING = `status = 'active' AND (expires_at IS NULL OR expires_at > @now)`;
const sql = {
  slot: db.prepare('SELECT * FROM slots WHERE nr_seq_agenda = ? LIMIT 1'),
  lockAgenda: db.prepare('SELECT cd_agenda FROM agendas WHERE cd_agenda = ?'),
  procedure: db.prepare('SELECT * FROM procedures WHERE nr_seq_proc_interno = ? LIMIT 1'),
  quota: db.prepare(`SELECT count(*) AS n, min(expires_at) AS oldest FROM reservations WHERE owner = @owner AND ${HOLDING}`),
  overlap: db.prepare(
    `SELECT token FROM reservations WHERE cd_agenda = @agenda AND ${HOLDING} AND start_ms < @end AND end_ms > @start LIMIT 1`,
  ),
  expireLapsed: db.prepare(
    `UPDATE reservations SET status = 'expired', active_booking = NULL WHERE active_booking = ? AND status = 'active' AND expires_at <= ?`,
  ),
  alreadyBooked: db.prepare(
    `SELECT token FROM reservations WHERE cd_pessoa_fisica = @person AND nr_seq_proc_interno = @proc AND ${HOLDING} LIMIT 1`,
  ),
  insertReservation: db.prepare(
    `INSERT INTO reservations (token, nr_seq_agenda, cd_agenda, start_ms, end_ms, nr_seq_proc_interno, cd_pessoa_fisica, ie_lado, cd_convenio,
       cd_categoria, cd_plano, cd_usuario_convenio, nm_usuario, status, active_booking, reserved_at, owner, expires_at)
     VALUES (@token, @nrSeqAgenda, @cdAgenda, @start, @end, @nrSeqProcInterno, @cdPessoaFisica, @ieLado, @cdConvenio, @cdCategoria, @cdPlano,
       @cdUsuarioConvenio, @nmUsuario, 'active', @booking, @now, @owner, @expiresAt)`,
  ),
  release: db.prepare(
    `UPDATE reservations SET status = 'released', active_booking = NULL, released_at = @now WHERE token = @token AND nr_seq_agenda = @agenda AND ${HOLDING} AND owner = @owner`,
  ),
  audit: db.prepare(
    `INSERT INTO audit_events (id, at_ms, actor_kind, actor_id, action, target, outcome, http_status, before_json, after_json)
     VALUES (?, ?, 'api-client', ?, ?, ?, ?, ?, ?, ?)`,
  ),
  logReservation: db.prepare(
    `INSERT INTO reservation_log (id, token, owner, actor_id, state, nr_seq_agenda, nr_seq_proc_interno, nr_min_duracao, ie_lado, cd_convenio,
       cd_categoria, cd_plano, nm_usuario, cd_pessoa_fisica_masked, cd_usuario_convenio_masked, created_at, released_at, expires_at)
     VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
  ),
  logRelease: db.prepare(
    `UPDATE reservation_log SET state = 'released', released_at = ? WHERE token = ? AND nr_seq_agenda = ? AND state = 'active'`,
  ),
  webhook: db.prepare('SELECT * FROM webhook_configs WHERE id = ?'),
  subscriptions: db.prepare('SELECT event_type FROM webhook_subscriptions WHERE config_id = ?'),
  updateWebhook: db.prepare(
    `UPDATE webhook_configs SET url = @url, headers_json = @headers, version = version + 1, updated_at = @now WHERE id = @id`,
  ),
  clearSubscriptions: db.prepare('DELETE FROM webhook_subscriptions WHERE config_id = ?'),
  subscribe: db.prepare('INSERT INTO webhook_subscriptions (config_id, event_type) VALUES (?, ?)'),
};

const MESSAGES = {
  '0': 'Horário reservado com sucesso.',
  '1': 'Reserva cancelada; horário liberado.',
  '2': 'Horário não está mais disponível.',
  '3': 'Horário (NR_SEQ_AGENDA) não encontrado.',
  '4': 'Não foi possível cancelar a reserva: token inválido ou horário não reservado.',
  '5': 'O beneficiário já possui reserva ativa para este exame.',
} as const;
type Codigo = keyof typeof MESSAGES;
const answer = (codigo: Codigo, token = '') => ({
  IE_RESERVADO_P: codigo === '0' ? 'S' : 'N',
  TOKEN_RESERVA_P: token,
  CODIGO_P: codigo,
  MENSAGEM_P: MESSAGES[codigo],
});

const HOLD_MS = 30 * 60_000; // RESERVATION_HOLD_MINUTES' default
const HOLD_LIMIT = 200; // MAX_ACTIVE_HOLDS_PER_CLIENT's default
// Called inside an open transaction, a better-sqlite3 transaction function runs in a savepoint.
const inTransaction = db.transaction((work: () => unknown) => work());
let batch: Array<{ work: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void }> = [];

/**
 * The product's group commit (lib/db/direct-transaction.ts): the reservations of one event-loop
 * turn in one BEGIN IMMEDIATE transaction, each in a savepoint of its own, one durable COMMIT for
 * them all, and every answer after that COMMIT.
 */
function commitBatch() {
  const jobs = batch;
  batch = [];
  const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
  try {
    db.exec('BEGIN IMMEDIATE');
    for (const job of jobs) {
      try {
        outcomes.push({ ok: true, value: inTransaction(job.work) });
      } catch (error) {
        outcomes.push({ ok: false, error });
        // SQLite ended the whole transaction: the batch fails (as the product's does).
        if (!db.inTransaction) throw error;
      }
    }
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    jobs.forEach((job, index) => {
      const outcome = outcomes[index];
      job.reject(outcome && !outcome.ok ? outcome.error : error);
    });
    return;
  }
  jobs.forEach((job, index) => {
    const outcome = outcomes[index]!;
    if (outcome.ok) job.resolve(outcome.value);
    else job.reject(outcome.error);
  });
}

/**
 * With RAW_COMMIT=each (bench target 'raw:each'): each request in a durable transaction of its own,
 * the plain server the issue describes ("one SQLite transaction" per reservation), without the
 * group commit the product and the default yardstick share.
 */
const COMMIT_EACH = process.env.RAW_COMMIT === 'each';

/** `work` in the turn's group commit, resolved once the COMMIT holding it has returned. */
function committed<T>(work: () => T): Promise<T> {
  if (COMMIT_EACH) {
    try {
      return Promise.resolve(inTransaction.immediate(work) as T);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
  return new Promise<T>((resolve, reject) => {
    batch.push({ work, resolve: resolve as (value: unknown) => void, reject });
    if (batch.length === 1) setImmediate(commitBatch);
  });
}

/** The audit row's `after`, as the service writes it: identifiers and reservation tokens masked. */
function auditView(request: SlotReservationRequest, result: ReturnType<typeof answer>) {
  return {
    ieOpcao: request.ieOpcao,
    nrSeqAgenda: request.nrSeqAgenda,
    nrSeqProcInterno: request.nrSeqProcInterno,
    nrMinDuracao: request.nrMinDuracao,
    ieLado: request.ieLado ?? null,
    cdPessoaFisica: maskIdentifier(request.cdPessoaFisica),
    cdUsuarioConvenio: maskIdentifier(request.cdUsuarioConvenio, 4),
    cdConvenio: request.cdConvenio,
    cdCategoria: request.cdCategoria,
    cdPlano: request.cdPlano,
    nmUsuario: request.nmUsuario,
    tokenReservaCanc: maskToken(request.tokenReservaCanc),
    ...result,
    TOKEN_RESERVA_P: maskToken(result.TOKEN_RESERVA_P),
  };
}

function reserveOrRelease(principal: ApiClientPrincipal, request: SlotReservationRequest) {
  const now = Date.now();
  const owner = ownerKey(principal);
  const slot = sql.slot.get(request.nrSeqAgenda) as { cd_agenda: number; start_ms: number } | undefined;
  let result: ReturnType<typeof answer>;
  if (!slot) result = answer('3');
  else {
    sql.lockAgenda.get(slot.cd_agenda);
    result = request.ieOpcao === 'R' ? reserve(request, slot, owner, now) : release(request, owner, now);
  }
  const action = request.ieOpcao === 'R' ? 'slot.reserve' : 'slot.release';
  sql.audit.run(
    randomUUID(),
    Date.now(),
    principal.clientId,
    action,
    `slot:${request.nrSeqAgenda}`,
    `CODIGO_P=${result.CODIGO_P}`,
    CODIGO_P_STATUS[result.CODIGO_P],
    null,
    JSON.stringify(auditView(request, result)),
  );
  if (result.CODIGO_P === '0') {
    sql.logReservation.run(
      randomUUID(),
      result.TOKEN_RESERVA_P,
      owner,
      principal.clientId,
      request.nrSeqAgenda,
      request.nrSeqProcInterno,
      request.nrMinDuracao,
      request.ieLado ?? null,
      request.cdConvenio,
      request.cdCategoria,
      request.cdPlano,
      request.nmUsuario,
      maskIdentifier(request.cdPessoaFisica) ?? '',
      maskIdentifier(request.cdUsuarioConvenio, 4) ?? '',
      now,
      now + HOLD_MS,
    );
  }
  if (result.CODIGO_P === '1') sql.logRelease.run(now, request.tokenReservaCanc ?? '', request.nrSeqAgenda);
  return result;
}

function reserve(request: SlotReservationRequest, slot: { cd_agenda: number; start_ms: number }, owner: string, now: number) {
  const procedure = sql.procedure.get(request.nrSeqProcInterno) as { requires_side: number; default_minutes: number } | undefined;
  if (!procedure) throw new Error('unknown procedure');
  if (procedure.requires_side && !request.ieLado) throw new Error('ieLado required');
  if (request.nrMinDuracao > 4 * procedure.default_minutes) throw new Error('nrMinDuracao too long'); // MAX_DURATION_FACTOR's default
  const start = Number(slot.start_ms);
  const end = start + request.nrMinDuracao * 60_000;
  if (start <= now) return answer('2');
  const holds = sql.quota.get({ owner, now }) as { n: number };
  if (holds.n >= HOLD_LIMIT) throw new Error('hold quota exceeded');
  if (sql.overlap.get({ agenda: slot.cd_agenda, now, start, end })) return answer('2');
  const booking = activeBookingKey(request.cdPessoaFisica, request.nrSeqProcInterno);
  sql.expireLapsed.run(booking, now);
  if (sql.alreadyBooked.get({ person: request.cdPessoaFisica, proc: request.nrSeqProcInterno, now })) return answer('5');
  const token = randomBytes(16).toString('hex').toUpperCase();
  sql.insertReservation.run({
    ...request,
    ieLado: request.ieLado ?? null,
    token,
    cdAgenda: slot.cd_agenda,
    start,
    end,
    booking,
    now,
    owner,
    expiresAt: now + HOLD_MS,
  });
  return answer('0', token);
}

function release(request: SlotReservationRequest, owner: string, now: number) {
  const released = sql.release.run({ now, token: request.tokenReservaCanc ?? '', agenda: request.nrSeqAgenda, owner }).changes;
  return released === 1 ? answer('1') : answer('4');
}

function updateWebhook(principal: ApiClientPrincipal, id: string, body: Record<string, unknown>) {
  const row = sql.webhook.get(id) as Record<string, unknown> | undefined;
  if (!row || row.usuario_id !== principal.usuarioId) return undefined;
  const now = Date.now();
  const next = { ...body, id };
  const subscribed = new Set((sql.subscriptions.all(id) as { event_type: string }[]).map((subscription) => subscription.event_type));
  sql.updateWebhook.run({
    id,
    now,
    url: String(body.url ?? row.url),
    headers: JSON.stringify(body.headers ?? JSON.parse(String(row.headers_json))),
  });
  sql.clearSubscriptions.run(id);
  for (const flag of WEBHOOK_EVENT_FLAGS)
    if (typeof body[flag] === 'boolean' ? body[flag] : subscribed.has(EVENT_TYPE_OF_FLAG[flag]))
      sql.subscribe.run(id, EVENT_TYPE_OF_FLAG[flag]);
  sql.audit.run(
    randomUUID(),
    now,
    principal.clientId,
    'webhook.update',
    `webhook:${id}`,
    'updated',
    200,
    JSON.stringify(row),
    JSON.stringify(next),
  );
  return next;
}

function send(response: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

const WEBHOOK_PATH = /^\/api\/v2\/avaliacao-saude\/configuracao-web-hook\/([0-9a-f-]{36})$/;
http
  .createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const principal = principalOf(request);
        if (!principal) return send(response, 401, { title: 'Unauthorized' });
        let json: unknown;
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return send(response, 400, { title: 'Bad Request' });
        }
        if (request.method === 'POST' && request.url === '/api/v1/agendamentos/slots-livres/reservar') {
          const parsed = slotReservationSchema.safeParse(json);
          if (!parsed.success) return send(response, 400, { title: 'Bad Request' });
          const result = await committed(() => reserveOrRelease(principal, parsed.data));
          return send(response, CODIGO_P_STATUS[result.CODIGO_P], result);
        }
        const webhook = request.method === 'PUT' ? WEBHOOK_PATH.exec(request.url ?? '') : null;
        if (webhook) {
          const parsed = webhookUpdateSchema.safeParse(json);
          if (!parsed.success) return send(response, 400, { title: 'Bad Request' });
          // The product's webhook PUT commits on its own (a knex transaction), so this one does too.
          const updated = inTransaction.immediate(() => updateWebhook(principal, webhook[1]!, parsed.data)) as ReturnType<
            typeof updateWebhook
          >;
          return updated ? send(response, 200, updated) : send(response, 404, { title: 'Not Found' });
        }
        send(response, 404, { title: 'Not Found' });
      })().catch((error: unknown) => {
        console.error(error);
        send(response, 500, { title: 'Internal Server Error' });
      });
    });
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => console.log('raw baseline ready'));
