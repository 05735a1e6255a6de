import 'server-only';
import { createApiClient, listApiClients, revokeApiClient, rotateApiClientSecret } from '@/lib/api-clients/service';
import { listAudit } from '@/lib/audit/store';
import { z } from 'zod';
import { linkOrigin } from '@/lib/http/same-origin';
import { createStaff, listStaff, resetPasswordLink, updateStaff } from '@/lib/staff/service';
import { auditEntrySchema, auditQuerySchema } from '@/lib/audit/contract';
import { queryParameters } from '@/lib/openapi/fragments';
import { apiClientCreateSchema, apiClientViewSchema, apiClientWithSecretSchema } from '@/lib/api-clients/contract';
import { passwordLinkSchema, staffCreatedSchema, staffCreateSchema, staffUpdateSchema, staffViewSchema } from '@/lib/staff/contract';
import { adminDoc, apiClientParams, staffParams } from './docs';
import { answer } from '@/lib/http/answers';
import { operation } from '@/lib/http/operation';

const noSuchClient = answer.problem('No such client.');
const noSuchUser = answer.problem('No such user.');

/** API clients, staff accounts and the audit trail: staff admins only (the operations' capability). */
export const administrationOperations = {
  listApiClients: operation(
    {
      method: 'GET',
      path: '/api/v1/admin/clientes-api',
      capability: 'administration',
      responses: { 200: answer.json(z.array(apiClientViewSchema), 'The clients.') },
      doc: adminDoc('API clients', 'Every API client with its tenant, scopes, state and when it last obtained a token; never a secret.'),
    },
    async () => ({ status: 200, body: await listApiClients() }),
  ),
  /** 201 with the new client and its secret, shown this once. */
  createApiClient: operation(
    {
      method: 'POST',
      path: '/api/v1/admin/clientes-api',
      body: apiClientCreateSchema,
      capability: 'administration',
      responses: {
        201: answer.json(apiClientWithSecretSchema, 'Created, with the secret.'),
        409: answer.problem('A client with this clientId exists.'),
      },
      doc: adminDoc('Create an API client', 'Its secret (256 random bits) is in this answer only; the server keeps its hash.'),
    },
    async ({ principal, body }) => ({ status: 201, body: await createApiClient(principal, await body()) }),
  ),
  rotateApiClientSecret: operation(
    {
      method: 'POST',
      path: '/api/v1/admin/clientes-api/{clientId}/segredo/rotacao',
      params: apiClientParams,
      capability: 'administration',
      responses: { 200: answer.json(apiClientWithSecretSchema, 'The new secret.'), 404: noSuchClient },
      doc: adminDoc(
        'Rotate an API client’s secret',
        'A new secret, shown once; the previous one keeps working for CLIENT_SECRET_OVERLAP_HOURS so the partner can switch.',
      ),
    },
    async ({ principal, params }) => ({ status: 200, body: await rotateApiClientSecret(principal, params.clientId) }),
  ),
  revokeApiClient: operation(
    {
      method: 'POST',
      path: '/api/v1/admin/clientes-api/{clientId}/revogacao',
      params: apiClientParams,
      capability: 'administration',
      responses: { 200: answer.json(apiClientViewSchema, 'The client, revoked.'), 404: noSuchClient },
      doc: adminDoc('Revoke an API client', 'It gets no more tokens, and the tokens it holds stop working within a minute.'),
    },
    async ({ principal, params }) => ({ status: 200, body: await revokeApiClient(principal, params.clientId) }),
  ),
  listStaff: operation(
    {
      method: 'GET',
      path: '/api/v1/admin/equipe',
      capability: 'administration',
      responses: { 200: answer.json(z.array(staffViewSchema), 'The staff.') },
      doc: adminDoc('Staff accounts', 'Every staff user with roles and state; never a password.'),
    },
    async () => ({ status: 200, body: await listStaff() }),
  ),
  /** 201 with the account and its one-time password link. */
  createStaff: operation(
    {
      method: 'POST',
      path: '/api/v1/admin/equipe',
      body: staffCreateSchema,
      capability: 'administration',
      responses: {
        201: answer.json(staffCreatedSchema, 'Created, with the link.'),
        409: answer.problem('A user with this e-mail exists.'),
      },
      doc: adminDoc(
        'Create a staff account',
        'Makes a one-time link (24 h) for the person to set a password: e-mailed to them when the server has SMTP_URL, otherwise answered for the admin to hand over.',
      ),
    },
    async ({ request, principal, body }) => ({ status: 201, body: await createStaff(principal, await body(), linkOrigin(request)) }),
  ),
  updateStaff: operation(
    {
      method: 'PUT',
      path: '/api/v1/admin/equipe/{id}',
      body: staffUpdateSchema,
      params: staffParams,
      capability: 'administration',
      responses: { 200: answer.json(staffViewSchema, 'The account.'), 404: noSuchUser },
      doc: adminDoc(
        'Change roles, disable or enable a staff account',
        'A disabled user’s sessions end at their next request. Admins cannot remove their own admin role or disable themselves.',
      ),
    },
    async ({ principal, params, body }) => ({ status: 200, body: await updateStaff(principal, params.id, await body()) }),
  ),
  resetStaffPassword: operation(
    {
      method: 'POST',
      path: '/api/v1/admin/equipe/{id}/link-senha',
      params: staffParams,
      capability: 'administration',
      responses: { 200: answer.json(passwordLinkSchema, 'The link.'), 404: noSuchUser },
      doc: adminDoc(
        'A new one-time link to set the password',
        'Valid 24 h; an earlier link stops working. E-mailed when the server has SMTP_URL, otherwise answered.',
      ),
    },
    async ({ request, principal, params }) => ({ status: 200, body: await resetPasswordLink(principal, params.id, linkOrigin(request)) }),
  ),
  /** Newest first: `?acao=`, `?ator=`, `?alvo=`, `?antes=` (ISO 8601), `?limite=` (≤ 500). */
  listAuditTrail: operation(
    {
      method: 'GET',
      path: '/api/v1/auditoria',
      capability: 'audit',
      query: auditQuerySchema,
      responses: { 200: answer.json(z.array(auditEntrySchema), 'Entries, newest first.') },
      doc: {
        summary: 'Audit trail (operators)',
        tags: ['Audit'],
        description:
          'Who changed what, when and with what outcome; header values and patient identifiers masked. Staff admin session only: API clients get 403.',
        security: [{ consoleSession: [] }],
        parameters: queryParameters(auditQuerySchema, {
          acao: 'Only this action.',
          ator: 'Only this actor (API client id or staff e-mail).',
          alvo: 'Only this target (webhook:<id> or slot:<nrSeqAgenda>).',
          antes: 'Only entries older than this instant (paging).',
          limite: 'At most this many entries.',
        }),
      },
    },
    async ({ query }) => ({ status: 200, body: await listAudit(query) }),
  ),
};
