import { unknownApiPath } from '@/lib/http/route';

/**
 * Any /api path that no operation has (every route of lib/api/operations.ts has its own, more
 * specific folder): 404 problem+json for every method, instead of Next's HTML not-found page.
 */
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS } = unknownApiPath();
