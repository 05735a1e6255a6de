import 'server-only';
import { accountOperations } from './operations/account';
import { administrationOperations } from './operations/administration';
import { deliveryOperations } from './operations/deliveries';
import { payloadControlOperations } from './operations/payload-control';
import { platformOperations } from './operations/platform';
import { portalOperations } from './operations/portal';
import { schedulingOperations } from './operations/scheduling';
import { waitlistOperations } from './operations/waitlist';
import { webhookOperations } from './operations/webhooks';
import { buildOpenApiDocument } from '@/lib/openapi/document';

/**
 * Every API operation, each declared once in its feature's module (lib/api/operations/): method,
 * path, path params, query, body, the capability a caller needs, its documentation and its handler.
 * The router (lib/api/dispatch.ts), the wrapper's validation, the OpenAPI document (a loop over
 * these) and the browser's route table (generated from these: lib/api/routes.generated.ts, which
 * the e2e specs read too) all derive from here. The key is the operationId.
 */
export const operations = {
  ...platformOperations(openApiDocument),
  ...webhookOperations,
  ...deliveryOperations,
  ...payloadControlOperations,
  ...portalOperations,
  ...schedulingOperations,
  ...waitlistOperations,
  ...administrationOperations,
  ...accountOperations,
};

/** The OpenAPI document of every operation above (lib/openapi/document.ts), served by the platform's own. */
function openApiDocument(): unknown {
  return buildOpenApiDocument(operations);
}

export type Operations = typeof operations;
/** The key of an operation in `operations`: its operationId. */
export type OperationId = keyof Operations;

export { apiPath } from '@/lib/http/paths';
export type { Operation } from '@/lib/http/operation';
