import { dispatch } from '@/lib/api/dispatch';

/**
 * Every /api path but next-auth's own (app/api/auth) reaches this one route, and the API's router
 * (lib/api/dispatch.ts) takes it from here: the same router `npm start` and `npm run start:api`
 * answer the API with on the lean path, so each path exists once, on its operation (lib/api/operations/).
 */
export const dynamic = 'force-dynamic';

const handle = (request: Request) => dispatch(request);

export { handle as GET, handle as HEAD, handle as POST, handle as PUT, handle as DELETE, handle as PATCH, handle as OPTIONS };
