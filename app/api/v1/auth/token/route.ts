import { operations } from '@/lib/api/operations';
import { otherMethodsNotAllowed, publicRoute } from '@/lib/http/route';
import { handleTokenRequest } from '@/lib/auth/token-endpoint';

export const dynamic = 'force-dynamic';
export const POST = publicRoute(operations.issueToken, (request) => handleTokenRequest(request));

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { GET, HEAD, PUT, DELETE, PATCH } = otherMethodsNotAllowed(POST);
