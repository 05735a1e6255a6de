import 'server-only';
import { getDb } from '@/lib/db/handle';
import { refuse } from '@/lib/errors/refusal';
import { recordAudit } from '@/lib/audit/store';
import { maskSecret } from '@/lib/audit/masking';
import { isPortalSession, type Principal } from '@/lib/auth/principal';
import type { DisabledReason, WebhookConfiguration, WebhookCreate, WebhookDetail, WebhookUpdate, WebhookView } from '../contract';
import type { WebhookEventFlag } from '../../events/types';
import { WEBHOOK_EVENT_FLAGS } from '../../events/types';
import {
  closeCircuit,
  deleteWebhookRow,
  findWebhook,
  insertWebhook,
  listWebhooks,
  saveDeliveryState,
  type DeliveryState,
  saveWebhook,
  saveControls,
  saveContactEmail,
  saveBrokerCredentials,
  savePayloadControl,
  NO_CONTROLS,
  type DeliveryControls,
  type StoredWebhook,
} from '@/lib/webhooks/configurations/store/configs';
import { FieldRejected } from '@/lib/validation/field-rejected';
import { CLOSED, phaseOf, type CircuitState } from '../../delivery/circuit';
import { deleteDeliveriesOf } from '../../delivery/store';
import { ensureTenantRow } from '../store/tenants';
import { deleteAlertsOf } from '../../alerts/store';
import { assertConfigurationRoom } from '../../delivery/quotas';
import { isBrokerUrl } from '../broker-target';
import { BROKER_SCHEMES_TEXT } from '../destinations/kinds';
import { OPERATOR_CONFIG_ID } from '../../events/operational';
import { encryptCredentials, maskedCredentials, sameLoginTarget, type BrokerCredentials } from '../broker-credentials';
import { mailContactConfirmation, newContactLink, type NewContactLink } from '../contact-confirmation';
import { NO_PAYLOAD_CONTROL, payloadControlView } from '../../payload-control/contract';
import { assertTransformCompiles, payloadControlAfter, samePayloadControl } from '../../payload-control/settings';

/**
 * Webhook configurations as callers see them. An API client sees only configurations of its own
 * usuarioId; any other id, someone else's included, answers exactly like an unknown one (404), so
 * ids of other tenants cannot be probed. Staff with the webhooks role see every configuration.
 */
export function visibleTo(principal: Principal, stored: StoredWebhook | undefined): stored is StoredWebhook {
  if (!stored) return false;
  // Stored ids are lowercase (seed-format.ts); a platform token may spell its claim otherwise.
  return principal.kind === 'staff' || stored.config.usuarioId === principal.usuarioId.toLowerCase();
}

export function etagOf(stored: StoredWebhook): string {
  return `"${stored.config.id}.v${stored.version}"`;
}

/** The PUT's answer: the contract's object and whether deliveries go out. */
export function viewOf(stored: StoredWebhook): WebhookView {
  return {
    ...stored.config,
    ativo: stored.state.enabled,
    limiteEntregasPorSegundo: stored.controls.ratePerSecond,
    entregaOrdenada: stored.controls.ordered,
    emailContato: stored.contactEmail,
    emailContatoConfirmado: stored.contactConfirmed,
    credenciais: maskedCredentials(stored.config.id, stored.brokerCredentialsEnc),
    ...payloadControlView(stored.payload),
  };
}

/**
 * A broker target's login after a PUT or POST (encrypted; null: none). `given`: the body's
 * `credenciais` (undefined keeps the stored ones, as long as they still belong to the target:
 * `current` is null once the broker changed). An https receiver has none: credentials sent for
 * one are refused (400 naming the field), and stored ones go when a target becomes https.
 */
function credentialsAfter(
  configId: string,
  current: string | null,
  given: BrokerCredentials | null | undefined,
  url: string,
): string | null {
  if (!isBrokerUrl(url)) {
    if (given) throw new FieldRejected('credenciais', 'brokerOnly', `credenciais are only for a broker target (${BROKER_SCHEMES_TEXT}).`);
    return null;
  }
  if (given === undefined) return current;
  return given === null ? null : encryptCredentials(configId, given);
}

/** The controls after a PUT or POST: fields present replace stored ones. */
function controlsAfter(
  current: DeliveryControls,
  input: Pick<WebhookUpdate, 'limiteEntregasPorSegundo' | 'entregaOrdenada'>,
): DeliveryControls {
  return {
    ratePerSecond: input.limiteEntregasPorSegundo === undefined ? current.ratePerSecond : input.limiteEntregasPorSegundo,
    ordered: input.entregaOrdenada ?? current.ordered,
  };
}

function auditControls(controls: DeliveryControls) {
  return { limiteEntregasPorSegundo: controls.ratePerSecond, entregaOrdenada: controls.ordered };
}

/** The GET's answer: also why and since when deliveries stopped. */
export function detailOf(stored: StoredWebhook): WebhookDetail {
  const { enabled, disabledReason, disabledAt } = stored.state;
  const desativacao =
    !enabled && disabledReason && disabledAt !== null
      ? { motivo: disabledReason as DisabledReason, em: new Date(disabledAt).toISOString() }
      : null;
  return { ...viewOf(stored), desativacao, circuito: circuitView(stored.state.circuit, Date.now()) };
}

function circuitView({ failures, openUntil, openedAt }: CircuitState, now: number): WebhookDetail['circuito'] {
  if (openUntil === null) return null;
  return {
    estado: phaseOf({ openUntil }, now) === 'open' ? 'aberto' : 'teste',
    falhasSeguidas: failures,
    desde: new Date(openedAt ?? openUntil).toISOString(),
    proximaTentativa: new Date(openUntil).toISOString(),
  };
}

/**
 * Whether a principal reads custom header values (issue 43). They are often the receiver's own
 * credentials: a read-only portal session sees their names only, as it is refused the signing secret.
 */
export function readsHeaderValues(principal: Principal): boolean {
  return !(isPortalSession(principal) && principal.portal.readOnly);
}

/** The configuration as `principal` may read it: header values masked where it may not read them. */
function readableBy(principal: Principal, stored: StoredWebhook): StoredWebhook {
  if (readsHeaderValues(principal)) return stored;
  return { ...stored, config: { ...stored.config, headers: maskedHeaders(stored.config.headers) } };
}

/** A configuration `principal` may see (404 otherwise), as it may read it: never to be saved back. */
export async function getWebhook(principal: Principal, id: string): Promise<StoredWebhook> {
  const stored = await findWebhook(await getDb(), id);
  if (!visibleTo(principal, stored)) throw refuse.notFound('Webhook configuration not found.');
  return readableBy(principal, stored);
}

export async function searchWebhooks(principal: Principal, search: string | undefined): Promise<WebhookView[]> {
  const usuarioId = principal.kind === 'api-client' ? principal.usuarioId : undefined;
  const found = await listWebhooks(await getDb(), { usuarioId, search, limit: 500 });
  return found.map((stored) => viewOf(readableBy(principal, stored)));
}

/** A PUT's outcome: `credentialsDropped` when stored credentials went without the body removing them. */
export type UpdatedWebhook = StoredWebhook & { credentialsDropped: boolean };

/**
 * Applies a PUT: fields present replace stored ones (`headers` replaces the whole list), fields
 * omitted keep their values, except a broker login, which stays only while the URL names the same
 * broker (sameLoginTarget). With `ifMatch`, a configuration changed since that ETag is left alone
 * and the caller gets 412.
 */
export async function updateWebhook(
  principal: Principal,
  id: string,
  update: WebhookUpdate,
  ifMatch: string | null,
): Promise<UpdatedWebhook> {
  await assertTransformCompiles(update.transformacao);
  const db = await getDb();
  let contactLink: NewContactLink | null = null;
  const updated = await db.transaction(async (trx) => {
    const current = await findWebhook(trx, id, { lock: true });
    if (!visibleTo(principal, current)) throw refuse.notFound('Webhook configuration not found.');
    if (ifMatch !== null && !etagMatches(ifMatch, etagOf(current))) {
      throw refuse.stale('The configuration was changed by someone else since you read it. Reload it and apply your change again.');
    }
    const { ativo, limiteEntregasPorSegundo, entregaOrdenada, emailContato, credenciais, filtro, campos, transformacao, ...fields } =
      update;
    const next: WebhookConfiguration = { ...current.config, ...definedOnly(fields) };
    if (!(await saveWebhook(trx, next, current.version))) {
      throw refuse.stale('The configuration was changed at the same time. Reload it and apply your change again.');
    }
    const controls = controlsAfter(current.controls, { limiteEntregasPorSegundo, entregaOrdenada });
    if (controls.ratePerSecond !== current.controls.ratePerSecond || controls.ordered !== current.controls.ordered) {
      await saveControls(trx, id, controls);
    }
    const contactEmail = emailContato === undefined ? current.contactEmail : emailContato;
    const contactChanged = contactEmail !== current.contactEmail;
    // A new address is told nothing until its owner confirms it from the link it is e-mailed.
    contactLink = contactChanged && contactEmail !== null ? newContactLink(Date.now()) : null;
    if (contactChanged) await saveContactEmail(trx, id, contactEmail, contactLink);
    const contactConfirmed = contactChanged ? false : current.contactConfirmed;
    const keptCredentials = sameLoginTarget(current.config.url, next.url) ? current.brokerCredentialsEnc : null;
    const brokerCredentialsEnc = credentialsAfter(id, keptCredentials, credenciais, next.url);
    const credentialsDropped = credenciais === undefined && current.brokerCredentialsEnc !== null && brokerCredentialsEnc === null;
    if (brokerCredentialsEnc !== current.brokerCredentialsEnc) await saveBrokerCredentials(trx, id, brokerCredentialsEnc);
    const payload = payloadControlAfter(current.payload, { filtro, campos, transformacao });
    if (!samePayloadControl(payload, current.payload)) await savePayloadControl(trx, id, payload);
    let state =
      ativo === undefined || ativo === current.state.enabled ? current.state : await switchDeliveries(trx, id, ativo, current.state);
    // A new receiver URL starts with a closed circuit and no pause: the old one's outage says nothing about it.
    if (next.url !== current.config.url && (state.circuit.openUntil !== null || state.pausedUntil !== null)) {
      await closeCircuit(trx, id);
      state = { ...state, circuit: CLOSED, pausedUntil: null };
    }
    await recordAudit(trx, {
      principal,
      action: 'webhook.update',
      target: `webhook:${id}`,
      outcome: 'updated',
      httpStatus: 200,
      before: {
        ...auditView(current.config),
        ativo: current.state.enabled,
        ...auditControls(current.controls),
        emailContato: current.contactEmail,
        credenciais: maskedCredentials(id, current.brokerCredentialsEnc),
        ...payloadControlView(current.payload),
      },
      after: {
        ...auditView(next),
        ativo: state.enabled,
        ...auditControls(controls),
        emailContato: contactEmail,
        credenciais: maskedCredentials(id, brokerCredentialsEnc),
        ...payloadControlView(payload),
      },
    });
    return {
      config: next,
      version: current.version + 1,
      state,
      controls,
      contactEmail,
      contactConfirmed,
      brokerCredentialsEnc,
      credentialsDropped,
      payload,
    };
  });
  if (contactLink && updated.contactEmail) await mailContactConfirmation(updated.contactEmail, updated.config, contactLink);
  return updated;
}

/**
 * Puts a refused change in the trail: a stale If-Match, or a URL or header the safety policy
 * refused (a private target may be an SSRF attempt an operator wants to see). Only the fields and
 * rule codes are kept, never the refused values, which may hold credentials.
 */
export type RefusedUpdate = { httpStatus: number; problem: string; errors: readonly { field: string; code: string }[] };

export async function recordRefusedUpdate(principal: Principal, id: string, refused: RefusedUpdate): Promise<void> {
  const db = await getDb();
  // Only configurations the caller may see: refusals against unknown or other tenants' ids would
  // fill the trail with false alarms about them (the caller still gets its 400).
  if (!visibleTo(principal, await findWebhook(db, id))) return;
  await recordAudit(db, {
    principal,
    action: 'webhook.update',
    target: `webhook:${id}`,
    outcome: 'rejected',
    httpStatus: refused.httpStatus,
    after: { problema: refused.problem, erros: refused.errors.map(({ field, code }) => ({ campo: field, codigo: code })) },
  });
}

async function switchDeliveries(
  trx: Parameters<typeof saveDeliveryState>[0],
  id: string,
  enabled: boolean,
  current: DeliveryState,
): Promise<DeliveryState> {
  const now = Date.now();
  await saveDeliveryState(trx, id, enabled, enabled ? null : 'manual', now);
  // Switched back on: staff ask for deliveries now, so a circuit left open is closed too, and the failing streak starts over.
  return enabled
    ? { enabled, disabledReason: null, disabledAt: null, failingSince: null, circuit: CLOSED, pausedUntil: null }
    : { ...current, enabled, disabledReason: 'manual', disabledAt: now };
}

function definedOnly(
  update: Omit<
    WebhookUpdate,
    'ativo' | 'limiteEntregasPorSegundo' | 'entregaOrdenada' | 'emailContato' | 'credenciais' | 'filtro' | 'campos' | 'transformacao'
  >,
): Partial<WebhookConfiguration> {
  return Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined));
}

/** RFC 9110 If-Match: a list of entity tags or `*`; weak tags never match for a write. */
function etagMatches(ifMatch: string, etag: string): boolean {
  const candidates = ifMatch.split(',').map((tag) => tag.trim());
  return candidates.includes('*') || candidates.includes(etag);
}

/** Header values often hold receivers' secrets: the trail keeps their names only. */
function auditView(config: WebhookConfiguration) {
  return { ...config, headers: maskedHeaders(config.headers) };
}

function maskedHeaders(headers: WebhookConfiguration['headers']): WebhookConfiguration['headers'] {
  return headers.map((header) => ({ chave: header.chave, valor: maskSecret(header.valor) }));
}

/**
 * Creates a configuration (POST). An API client creates one for its own tenant: a usuarioId or
 * sistemaOrigem other than its own is refused (403), so no tenant can plant configurations in
 * another's; staff name the tenant (400 naming the field when they do not).
 */
export async function createWebhook(principal: Principal, input: WebhookCreate): Promise<StoredWebhook> {
  const tenant = tenantFor(principal, input);
  const flags = Object.fromEntries(WEBHOOK_EVENT_FLAGS.map((flag) => [flag, input[flag] ?? false])) as Record<WebhookEventFlag, boolean>;
  const config: WebhookConfiguration = { id: crypto.randomUUID(), ...tenant, url: input.url, headers: input.headers ?? [], ...flags };
  const enabled = input.ativo ?? true;
  const controls = controlsAfter(NO_CONTROLS, input);
  const contactEmail = input.emailContato ?? null;
  const contactLink = contactEmail === null ? null : newContactLink(Date.now());
  const brokerCredentialsEnc = credentialsAfter(config.id, null, input.credenciais, config.url);
  await assertTransformCompiles(input.transformacao);
  const payload = payloadControlAfter(NO_PAYLOAD_CONTROL, input);
  const db = await getDb();
  await ensureTenantRow(db, config.usuarioId);
  await db.transaction(async (trx) => {
    await assertConfigurationRoom(trx, config.usuarioId);
    await insertWebhook(trx, config, controls);
    if (contactEmail !== null) await saveContactEmail(trx, config.id, contactEmail, contactLink);
    if (brokerCredentialsEnc !== null) await saveBrokerCredentials(trx, config.id, brokerCredentialsEnc);
    if (payload !== NO_PAYLOAD_CONTROL) await savePayloadControl(trx, config.id, payload);
    if (!enabled) await saveDeliveryState(trx, config.id, false, 'manual', Date.now());
    await recordAudit(trx, {
      principal,
      action: 'webhook.create',
      target: `webhook:${config.id}`,
      outcome: 'created',
      httpStatus: 201,
      after: {
        ...auditView(config),
        ativo: enabled,
        ...auditControls(controls),
        emailContato: contactEmail,
        credenciais: maskedCredentials(config.id, brokerCredentialsEnc),
        ...payloadControlView(payload),
      },
    });
  });
  if (contactEmail !== null && contactLink) await mailContactConfirmation(contactEmail, config, contactLink);
  return {
    config,
    controls,
    contactEmail,
    contactConfirmed: false,
    brokerCredentialsEnc,
    payload,
    version: 1,
    state: {
      enabled,
      disabledReason: enabled ? null : 'manual',
      disabledAt: enabled ? null : Date.now(),
      failingSince: null,
      circuit: CLOSED,
      pausedUntil: null,
    },
  };
}

function tenantFor(principal: Principal, input: WebhookCreate): Pick<WebhookConfiguration, 'usuarioId' | 'sistemaOrigem' | 'clientId'> {
  if (principal.kind === 'api-client') {
    const own = principal.usuarioId.toLowerCase();
    if (
      (input.usuarioId !== undefined && input.usuarioId !== own) ||
      (input.sistemaOrigem !== undefined && input.sistemaOrigem !== principal.sistemaOrigem)
    ) {
      throw refuse.forbidden('An API client creates configurations for its own tenant only.');
    }
    return { usuarioId: own, sistemaOrigem: principal.sistemaOrigem, clientId: principal.clientId };
  }
  if (input.usuarioId === undefined) throw new FieldRejected('usuarioId', 'required', 'usuarioId is required.');
  if (input.sistemaOrigem === undefined) throw new FieldRejected('sistemaOrigem', 'required', 'sistemaOrigem is required.');
  return { usuarioId: input.usuarioId, sistemaOrigem: input.sistemaOrigem, clientId: input.clientId ?? null };
}

/** Deletes a configuration and its delivery log; another tenant's or an unknown id is a 404. */
export async function deleteWebhook(principal: Principal, id: string): Promise<void> {
  const db = await getDb();
  await db.transaction(async (trx) => {
    const current = await findWebhook(trx, id, { lock: true });
    if (!visibleTo(principal, current)) throw refuse.notFound('Webhook configuration not found.');
    // OPERATIONAL_WEBHOOK_URL makes it again at the next start (with a new secret): a delete that
    // does not stick. Unsetting the setting stops its events; switching it off pauses them.
    if (id === OPERATOR_CONFIG_ID)
      throw refuse.conflict(
        'operator-configuration',
        'The operator’s configuration follows OPERATIONAL_WEBHOOK_URL: unset that setting to stop operational notifications, or switch the configuration off.',
      );
    await deleteDeliveriesOf(trx, id);
    await deleteAlertsOf(trx, id);
    await deleteWebhookRow(trx, id);
    await recordAudit(trx, {
      principal,
      action: 'webhook.delete',
      target: `webhook:${id}`,
      outcome: 'deleted',
      httpStatus: 204,
      before: { ...auditView(current.config), ativo: current.state.enabled },
    });
  });
}
