/**
 * Every API operation's method and path, defined once, and nothing else: the browser's code
 * imports this (apiPath) without the operations' documentation and query schemas, which
 * lib/api/operations.ts adds to these same entries for the server, the OpenAPI document and the
 * e2e specs. The key is the operationId.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type Route = { method: HttpMethod; path: string };

const CONFIG_PATH = '/api/v2/avaliacao-saude/configuracao-web-hook/{id}';

export const routes = {
  issueToken: { method: 'POST', path: '/api/v1/auth/token' },
  liveness: { method: 'GET', path: '/api/health' },
  readiness: { method: 'GET', path: '/api/health/ready' },
  listWebhookConfigurations: { method: 'GET', path: '/api/v2/avaliacao-saude/configuracao-web-hook' },
  createWebhookConfiguration: { method: 'POST', path: '/api/v2/avaliacao-saude/configuracao-web-hook' },
  deleteWebhookConfiguration: { method: 'DELETE', path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}' },
  getWebhookConfiguration: { method: 'GET', path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}' },
  updateWebhookConfiguration: { method: 'PUT', path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}' },
  listFreeSlots: { method: 'GET', path: '/api/v1/agendamentos/slots-livres' },
  listProcedures: { method: 'GET', path: '/api/v1/agendamentos/procedimentos' },
  listRecentReservations: { method: 'GET', path: '/api/v1/agendamentos/reservas-recentes' },
  listAuditTrail: { method: 'GET', path: '/api/v1/auditoria' },
  reserveOrReleaseSlot: { method: 'POST', path: '/api/v1/agendamentos/slots-livres/reservar' },
  reserveOrReleaseSlotSamplePath: { method: 'POST', path: '/api/v1/agendamentos/exames/slots-livres/reservas' },
  publishEvent: { method: 'POST', path: '/api/v2/avaliacao-saude/eventos' },
  listDeliveries: { method: 'GET', path: `${CONFIG_PATH}/entregas` },
  getDelivery: { method: 'GET', path: `${CONFIG_PATH}/entregas/{entregaId}` },
  redeliver: { method: 'POST', path: `${CONFIG_PATH}/entregas/{entregaId}/reenvio` },
  recoverDeliveries: { method: 'POST', path: `${CONFIG_PATH}/recuperacao` },
  sendTestEvent: { method: 'POST', path: `${CONFIG_PATH}/teste` },
  getWebhookSecret: { method: 'GET', path: `${CONFIG_PATH}/segredo` },
  rotateWebhookSecret: { method: 'POST', path: `${CONFIG_PATH}/segredo/rotacao` },
  listApiClients: { method: 'GET', path: '/api/v1/admin/clientes-api' },
  createApiClient: { method: 'POST', path: '/api/v1/admin/clientes-api' },
  rotateApiClientSecret: { method: 'POST', path: '/api/v1/admin/clientes-api/{clientId}/segredo/rotacao' },
  revokeApiClient: { method: 'POST', path: '/api/v1/admin/clientes-api/{clientId}/revogacao' },
  listStaff: { method: 'GET', path: '/api/v1/admin/equipe' },
  createStaff: { method: 'POST', path: '/api/v1/admin/equipe' },
  updateStaff: { method: 'PUT', path: '/api/v1/admin/equipe/{id}' },
  resetStaffPassword: { method: 'POST', path: '/api/v1/admin/equipe/{id}/link-senha' },
  setPasswordWithLink: { method: 'POST', path: '/api/v1/auth/definir-senha' },
  changeOwnPassword: { method: 'POST', path: '/api/v1/auth/senha' },
  openApiDocument: { method: 'GET', path: '/api/openapi.json' },
  apiReference: { method: 'GET', path: '/api/docs' },
} as const satisfies Record<string, Route>;

/** The operation's path with its `{name}` parameters filled in (URI-encoded). */
export function apiPath(route: Route, params: Record<string, string | number> = {}): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`apiPath: missing ${name} for ${route.path}`);
    return encodeURIComponent(String(value));
  });
}
