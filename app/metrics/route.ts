import { dispatch } from '@/lib/api/dispatch';

/**
 * GET /metrics for Prometheus (lib/health/scrape.ts), through the API's router like every
 * /api path (app/api/[[...path]]): `npm start` answers it on the lean path, the container image here.
 */
export const dynamic = 'force-dynamic';

const handle = (request: Request) => dispatch(request);

export { handle as GET, handle as HEAD, handle as POST, handle as PUT, handle as DELETE, handle as PATCH, handle as OPTIONS };
