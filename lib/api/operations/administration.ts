import 'server-only';
import { createApiClient, listApiClients, revokeApiClient, rotateApiClientSecret } from '@/lib/api-clients/service';
import { listAudit } from '@/lib/audit/audit-trail';
import { jsonResponse } from '@/lib/http/problem';
import { linkOrigin } from '@/lib/http/same-origin';
import { createStaff, listStaff, resetPasswordLink, updateStaff } from '@/lib/staff/service';
import { ref } from '@/lib/openapi/components';
import { auditEntrySchema, auditQuerySchema } from '@/lib/audit/contract';
import { bodyProblems, commonProblems, json, problem, queryParameters } from '@/lib/openapi/fragments';
import { apiClientCreateSchema, apiClientViewSchema, apiClientWithSecretSchema } from '@/lib/api-clients/contract';
import { passwordLinkSchema, staffCreatedSchema, staffCreateSchema, staffUpdateSchema, staffViewSchema } from '@/lib/staff/contract';
import { adminDoc, apiClientParams, staffParams } from './docs';
import { operation } from '../operation';

/** API clients, staff accounts and the audit trail: staff admins only (the operations' capability). */
export const administrationOperations = {
  listApiClients: operation(
    {
      method: 'GET',
      path: '/api/v1/admin/clientes-api',
      capability: 'administration',
      doc: adminDoc('API clients', 'Every API client with its tenant, scopes, state and when it last obtained a token; never a secret.', {
        '200': { description: 'The clients.', content: json({ type: 'array', items: ref(apiClientViewSchema) }) },
      }),
    },
    async () => jsonResponse(await listApiClients()),
  ),
  /** 201 with the new client and its secret, shown this once. */
  createApiClient: operation(
    {
      method: 'POST',
      path: '/api/v1/admin/clientes-api',
      body: apiClientCreateSchema,
      capability: 'administration',
      doc: adminDoc(
        'Create an API client',
        'Its secret (256 random bits) is in this answer only; the server keeps its hash.',
        {
          '201': { description: 'Created, with the secret.', content: json(ref(apiClientWithSecretSchema)) },
          ...bodyProblems,
          '409': problem('A client with this clientId exists.'),
        },
        { requestBody: { required: true, content: json(ref(apiClientCreateSchema)) } },
      ),
    },
    async ({ principal, body }) => jsonResponse(await createApiClient(principal, await body()), { status: 201 }),
  ),
  rotateApiClientSecret: operation(
    {
      method: 'POST',
      path: '/api/v1/admin/clientes-api/{clientId}/segredo/rotacao',
      params: apiClientParams,
      capability: 'administration',
      doc: adminDoc(
        'Rotate an API client’s secret',
        'A new secret, shown once; the previous one keeps working for CLIENT_SECRET_OVERLAP_HOURS so the partner can switch.',
        { '200': { description: 'The new secret.', content: json(ref(apiClientWithSecretSchema)) }, '404': problem('No such client.') },
      ),
    },
    async ({ principal, params }) => jsonResponse(await rotateApiClientSecret(principal, params.clientId)),
  ),
  revokeApiClient: operation(
    {
      method: 'POST',
      path: '/api/v1/admin/clientes-api/{clientId}/revogacao',
      params: apiClientParams,
      capability: 'administration',
      doc: adminDoc('Revoke an API client', 'It gets no more tokens, and the tokens it holds stop working within a minute.', {
        '200': { description: 'The client, revoked.', content: json(ref(apiClientViewSchema)) },
        '404': problem('No such client.'),
      }),
    },
    async ({ principal, params }) => jsonResponse(await revokeApiClient(principal, params.clientId)),
  ),
  listStaff: operation(
    {
      method: 'GET',
      path: '/api/v1/admin/equipe',
      capability: 'administration',
      doc: adminDoc('Staff accounts', 'Every staff user with roles and state; never a password.', {
        '200': { description: 'The staff.', content: json({ type: 'array', items: ref(staffViewSchema) }) },
      }),
    },
    async () => jsonResponse(await listStaff()),
  ),
  /** 201 with the account and its one-time password link. */
  createStaff: operation(
    {
      method: 'POST',
      path: '/api/v1/admin/equipe',
      body: staffCreateSchema,
      capability: 'administration',
      doc: adminDoc(
        'Create a staff account',
        'Makes a one-time link (24 h) for the person to set a password: e-mailed to them when the server has SMTP_URL, otherwise answered for the admin to hand over.',
        {
          '201': { description: 'Created, with the link.', content: json(ref(staffCreatedSchema)) },
          ...bodyProblems,
          '409': problem('A user with this e-mail exists.'),
        },
        { requestBody: { required: true, content: json(ref(staffCreateSchema)) } },
      ),
    },
    async ({ request, principal, body }) => jsonResponse(await createStaff(principal, await body(), linkOrigin(request)), { status: 201 }),
  ),
  updateStaff: operation(
    {
      method: 'PUT',
      path: '/api/v1/admin/equipe/{id}',
      body: staffUpdateSchema,
      params: staffParams,
      capability: 'administration',
      doc: adminDoc(
        'Change roles, disable or enable a staff account',
        'A disabled user’s sessions end at their next request. Admins cannot remove their own admin role or disable themselves.',
        { '200': { description: 'The account.', content: json(ref(staffViewSchema)) }, ...bodyProblems, '404': problem('No such user.') },
        { requestBody: { required: true, content: json(ref(staffUpdateSchema)) } },
      ),
    },
    async ({ principal, params, body }) => jsonResponse(await updateStaff(principal, params.id, await body())),
  ),
  resetStaffPassword: operation(
    {
      method: 'POST',
      path: '/api/v1/admin/equipe/{id}/link-senha',
      params: staffParams,
      capability: 'administration',
      doc: adminDoc(
        'A new one-time link to set the password',
        'Valid 24 h; an earlier link stops working. E-mailed when the server has SMTP_URL, otherwise answered.',
        {
          '200': { description: 'The link.', content: json(ref(passwordLinkSchema)) },
          '400': problem('id is not a UUID.'),
          '404': problem('No such user.'),
        },
      ),
    },
    async ({ request, principal, params }) => jsonResponse(await resetPasswordLink(principal, params.id, linkOrigin(request))),
  ),
  /** Newest first: `?acao=`, `?ator=`, `?alvo=`, `?antes=` (ISO 8601), `?limite=` (≤ 500). */
  listAuditTrail: operation(
    {
      method: 'GET',
      path: '/api/v1/auditoria',
      capability: 'audit',
      query: auditQuerySchema,
      doc: {
        summary: 'Audit trail (operators)',
        tags: ['Auditoria'],
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
        responses: {
          '200': { description: 'Entries, newest first.', content: json({ type: 'array', items: ref(auditEntrySchema) }) },
          '400': problem('A filter is invalid.'),
          ...commonProblems,
        },
      },
    },
    async ({ query }) => jsonResponse(await listAudit(query)),
  ),
};
