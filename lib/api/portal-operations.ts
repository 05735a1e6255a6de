import type { OperationId } from './operations';

/**
 * The operations the partner portal's pages call, and so the only ones its API path
 * (/portal/api/…, app/portal/api) serves: its tenant's configurations, their delivery log, health,
 * test event, payload control's test bench, recovery and signing secret, and opening and closing its own session. Anything else
 * there (the token endpoint, password links, health, the OpenAPI document, staff operations)
 * answers 404, as a path no operation has. A new screen in the portal that calls another operation
 * adds it here.
 */
export const PORTAL_OPERATION_IDS = [
  'listWebhookConfigurations',
  'getWebhookConfiguration',
  'updateWebhookConfiguration',
  'deleteWebhookConfiguration',
  'listDeliveries',
  'getDelivery',
  'deliveryHealth',
  'redeliver',
  'recoverDeliveries',
  'sendTestEvent',
  'testPayloadControl',
  'getWebhookSecret',
  'rotateWebhookSecret',
  'openPortalSession',
  'closePortalSession',
] as const satisfies readonly OperationId[];
