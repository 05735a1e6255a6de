import { operations } from '@/lib/api/operations';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { listAudit } from '@/lib/audit/audit-trail';

export const dynamic = 'force-dynamic';

/**
 * The audit trail for operators, newest first: `?acao=`, `?ator=`, `?alvo=`, `?antes=` (ISO 8601),
 * `?limite=` (≤ 500). Staff `admin` only; API clients get 403 (see Capability in principal.ts).
 */
export const GET = apiRoute(operations.listAuditTrail, async ({ query }) => {
  return jsonResponse(await listAudit(query));
});

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { POST, PUT, DELETE, PATCH } = otherMethodsNotAllowed(GET);
