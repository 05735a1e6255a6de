import { operations } from '@/lib/api/operations';
import { publicRoute } from '@/lib/http/route';
import { handleTokenRequest } from '@/lib/auth/token-endpoint';

export const dynamic = 'force-dynamic';
export const POST = publicRoute(operations.issueToken, (request) => handleTokenRequest(request));
