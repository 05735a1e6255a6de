// Generated from lib/api/operations.ts by `npm run generate:routes`: do not edit.
// One export per operation: a page's bundle carries the routes its code imports, not the table.
import type { Route } from '@/lib/http/paths';

export const issueToken = { method: 'POST', path: '/api/v1/auth/token' } as const satisfies Route;
export const liveness = { method: 'GET', path: '/api/health' } as const satisfies Route;
export const readiness = { method: 'GET', path: '/api/health/ready' } as const satisfies Route;
export const openApiDocument = { method: 'GET', path: '/api/openapi.json' } as const satisfies Route;
export const apiReference = { method: 'GET', path: '/api/docs' } as const satisfies Route;
export const metrics = { method: 'GET', path: '/metrics' } as const satisfies Route;
export const listWebhookConfigurations = { method: 'GET', path: '/api/v2/avaliacao-saude/configuracao-web-hook' } as const satisfies Route;
export const createWebhookConfiguration = {
  method: 'POST',
  path: '/api/v2/avaliacao-saude/configuracao-web-hook',
} as const satisfies Route;
export const getWebhookConfiguration = {
  method: 'GET',
  path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}',
} as const satisfies Route;
export const updateWebhookConfiguration = {
  method: 'PUT',
  path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}',
} as const satisfies Route;
export const confirmContactEmail = { method: 'POST', path: '/api/v2/avaliacao-saude/contato-tecnico/confirmacao' } as const satisfies Route;
export const deleteWebhookConfiguration = {
  method: 'DELETE',
  path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}',
} as const satisfies Route;
export const publishEvent = { method: 'POST', path: '/api/v2/avaliacao-saude/eventos' } as const satisfies Route;
export const publishEventBatch = { method: 'POST', path: '/api/v2/avaliacao-saude/eventos/lote' } as const satisfies Route;
export const listDeliveries = {
  method: 'GET',
  path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/entregas',
} as const satisfies Route;
export const deliveryHealth = { method: 'GET', path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/saude' } as const satisfies Route;
export const deliveryTriage = { method: 'GET', path: '/api/v2/avaliacao-saude/saude-entregas' } as const satisfies Route;
export const listDeliveryAlerts = { method: 'GET', path: '/api/v2/avaliacao-saude/alertas-entregas' } as const satisfies Route;
export const getDelivery = {
  method: 'GET',
  path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/entregas/{entregaId}',
} as const satisfies Route;
export const redeliver = {
  method: 'POST',
  path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/entregas/{entregaId}/reenvio',
} as const satisfies Route;
export const recoverDeliveries = {
  method: 'POST',
  path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/recuperacao',
} as const satisfies Route;
export const sendTestEvent = { method: 'POST', path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/teste' } as const satisfies Route;
export const getWebhookSecret = {
  method: 'GET',
  path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/segredo',
} as const satisfies Route;
export const rotateWebhookSecret = {
  method: 'POST',
  path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/segredo/rotacao',
} as const satisfies Route;
export const testPayloadControl = {
  method: 'POST',
  path: '/api/v2/avaliacao-saude/configuracao-web-hook/{id}/payload/teste',
} as const satisfies Route;
export const issuePortalLink = { method: 'POST', path: '/api/v2/avaliacao-saude/portal/links' } as const satisfies Route;
export const listPortalAccess = { method: 'GET', path: '/api/v2/avaliacao-saude/portal/acessos' } as const satisfies Route;
export const revokePortalLink = { method: 'DELETE', path: '/api/v2/avaliacao-saude/portal/links/{linkId}' } as const satisfies Route;
export const revokePortalSession = { method: 'DELETE', path: '/api/v2/avaliacao-saude/portal/sessoes/{sessaoId}' } as const satisfies Route;
export const openPortalSession = { method: 'POST', path: '/api/v2/avaliacao-saude/portal/sessao' } as const satisfies Route;
export const closePortalSession = { method: 'DELETE', path: '/api/v2/avaliacao-saude/portal/sessao' } as const satisfies Route;
export const listFreeSlots = { method: 'GET', path: '/api/v1/agendamentos/slots-livres' } as const satisfies Route;
export const listSlots = { method: 'GET', path: '/api/v1/agendamentos/slots' } as const satisfies Route;
export const listAgendas = { method: 'GET', path: '/api/v1/agendamentos/agendas' } as const satisfies Route;
export const listProcedures = { method: 'GET', path: '/api/v1/agendamentos/procedimentos' } as const satisfies Route;
export const listRecentReservations = { method: 'GET', path: '/api/v1/agendamentos/reservas-recentes' } as const satisfies Route;
export const releaseRecentReservation = {
  method: 'POST',
  path: '/api/v1/agendamentos/reservas-recentes/{token}/liberacao',
} as const satisfies Route;
export const reserveOrReleaseSlot = { method: 'POST', path: '/api/v1/agendamentos/slots-livres/reservar' } as const satisfies Route;
export const reserveOrReleaseSlotSamplePath = {
  method: 'POST',
  path: '/api/v1/agendamentos/exames/slots-livres/reservas',
} as const satisfies Route;
export const addWaitlistEntry = { method: 'POST', path: '/api/v1/agendamentos/lista-espera' } as const satisfies Route;
export const listWaitlistEntries = { method: 'GET', path: '/api/v1/agendamentos/lista-espera' } as const satisfies Route;
export const listWaitlistLines = { method: 'GET', path: '/api/v1/agendamentos/filas-espera' } as const satisfies Route;
export const getWaitlistEntry = { method: 'GET', path: '/api/v1/agendamentos/lista-espera/{id}' } as const satisfies Route;
export const removeWaitlistEntry = { method: 'DELETE', path: '/api/v1/agendamentos/lista-espera/{id}' } as const satisfies Route;
export const acceptWaitlistOffer = { method: 'POST', path: '/api/v1/agendamentos/lista-espera/{id}/aceite' } as const satisfies Route;
export const declineWaitlistOffer = { method: 'POST', path: '/api/v1/agendamentos/lista-espera/{id}/recusa' } as const satisfies Route;
export const moveWaitlistEntry = { method: 'POST', path: '/api/v1/agendamentos/lista-espera/{id}/posicao' } as const satisfies Route;
export const listApiClients = { method: 'GET', path: '/api/v1/admin/clientes-api' } as const satisfies Route;
export const createApiClient = { method: 'POST', path: '/api/v1/admin/clientes-api' } as const satisfies Route;
export const rotateApiClientSecret = {
  method: 'POST',
  path: '/api/v1/admin/clientes-api/{clientId}/segredo/rotacao',
} as const satisfies Route;
export const revokeApiClient = { method: 'POST', path: '/api/v1/admin/clientes-api/{clientId}/revogacao' } as const satisfies Route;
export const listStaff = { method: 'GET', path: '/api/v1/admin/equipe' } as const satisfies Route;
export const createStaff = { method: 'POST', path: '/api/v1/admin/equipe' } as const satisfies Route;
export const updateStaff = { method: 'PUT', path: '/api/v1/admin/equipe/{id}' } as const satisfies Route;
export const resetStaffPassword = { method: 'POST', path: '/api/v1/admin/equipe/{id}/link-senha' } as const satisfies Route;
export const listAuditTrail = { method: 'GET', path: '/api/v1/auditoria' } as const satisfies Route;
export const setPasswordWithLink = { method: 'POST', path: '/api/v1/auth/definir-senha' } as const satisfies Route;
export const changeOwnPassword = { method: 'POST', path: '/api/v1/auth/senha' } as const satisfies Route;
