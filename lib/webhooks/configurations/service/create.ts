import 'server-only';
import { getDb } from '@/lib/db/handle';
import { refuse } from '@/lib/errors/refusal';
import { recordAudit } from '@/lib/audit/store';
import type { Principal } from '@/lib/auth/principal';
import { FieldRejected } from '@/lib/validation/field-rejected';
import type { WebhookConfiguration, WebhookCreate } from '../contract';
import { WEBHOOK_EVENT_FLAGS, type WebhookEventFlag } from '../../events/types';
import { maskedCredentials } from '../broker-credentials';
import { mailContactConfirmation, newContactLink } from '../contact-confirmation';
import { assertConfigurationRoom } from '../quota';
import { insertWebhook, saveBrokerCredentials, savePayloadControl, saveSwitch } from '../store/configs';
import { saveContactEmail } from '../store/contact';
import { NO_CONTROLS, type StoredWebhook } from '../store/rows';
import { ensureTenantRow } from '../store/tenants';
import { NO_PAYLOAD_CONTROL, payloadControlView } from '../../payload-control/contract';
import { assertTransformCompiles, payloadControlAfter } from '../../payload-control/settings';
import { auditView } from './access';
import { auditControls, controlsAfter, credentialsAfter } from './changes';

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
    if (!enabled) await saveSwitch(trx, config.id, false, 'manual', Date.now());
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
    state: { enabled, disabledReason: enabled ? null : 'manual', disabledAt: enabled ? null : Date.now() },
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
