import type { DisabledReason, WebhookView } from '../contract';
import { maskedCredentials } from '../broker-credentials';
import type { StoredWebhook } from '../store/rows';
import { payloadControlView } from '../../payload-control/contract';

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

/** Why and since when deliveries stopped (null while they go): the GET's `desativacao`. */
export function switchView({ enabled, disabledReason, disabledAt }: StoredWebhook['state']): { motivo: DisabledReason; em: string } | null {
  return !enabled && disabledReason && disabledAt !== null
    ? { motivo: disabledReason as DisabledReason, em: new Date(disabledAt).toISOString() }
    : null;
}
