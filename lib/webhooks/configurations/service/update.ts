import 'server-only';
import { getDb } from '@/lib/db/handle';
import { refuse } from '@/lib/errors/refusal';
import { recordAudit } from '@/lib/audit/store';
import type { Principal } from '@/lib/auth/principal';
import type { WebhookConfiguration, WebhookUpdate } from '../contract';
import { maskedCredentials, sameLoginTarget } from '../broker-credentials';
import { mailContactConfirmation, newContactLink, type NewContactLink } from '../contact-confirmation';
import { configurationHooks } from '../hooks';
import { findWebhook, saveBrokerCredentials, saveControls, savePayloadControl, saveWebhook } from '../store/configs';
import { saveContactEmail } from '../store/contact';
import type { StoredWebhook } from '../store/rows';
import { payloadControlView } from '../../payload-control/contract';
import { assertTransformCompiles, payloadControlAfter, samePayloadControl } from '../../payload-control/settings';
import { auditView, etagOf, visibleTo } from './access';
import { auditControls, controlsAfter, credentialsAfter, definedOnly, etagMatches, switchDeliveries } from './changes';

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
    const state = ativo === undefined || ativo === current.state.enabled ? current.state : await switchDeliveries(trx, id, ativo);
    // A new receiver URL starts with a closed circuit and no pause: the old one's outage says nothing about it.
    if (next.url !== current.config.url) await configurationHooks().receiverChanged(trx, id);
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
