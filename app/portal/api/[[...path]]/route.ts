import { dispatch } from '@/lib/api/dispatch';
import { PORTAL_OPERATION_IDS } from '@/lib/api/portal-operations';
import type { OperationId } from '@/lib/api/operations';
import { PORTAL_API_PREFIX } from '@/lib/portal/cookie';
import { markPortalRequest } from '@/lib/portal/surface';

/**
 * The API as the portal's pages call it: /portal/api/… is the same router as /api/…, serving only
 * the operations the portal uses (lib/api/portal-operations.ts), authenticated by the portal
 * session's cookie alone (Path=/portal keeps that cookie off every other path). The request goes on
 * with /portal taken off its path, marked as the portal's.
 */
export const dynamic = 'force-dynamic';

const PORTAL_OPERATIONS: ReadonlySet<OperationId> = new Set(PORTAL_OPERATION_IDS);

function handle(request: Request): Promise<Response> {
  const url = new URL(request.url);
  url.pathname = url.pathname.slice(PORTAL_API_PREFIX.length);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const inner = new Request(url, {
    method: request.method,
    headers: request.headers,
    body: hasBody ? request.body : null,
    signal: request.signal,
    ...(hasBody ? { duplex: 'half' } : {}),
  });
  return dispatch(markPortalRequest(inner), PORTAL_OPERATIONS);
}

export { handle as GET, handle as HEAD, handle as POST, handle as PUT, handle as DELETE, handle as PATCH, handle as OPTIONS };
