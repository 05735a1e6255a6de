import type { Route } from './paths';
import { generatedRoutes } from './routes.generated';

/**
 * Every API operation's method and path, for the browser: the console's code imports this
 * (apiPath) without the operations' documentation and schemas, which stay on the server. The
 * entries are generated from lib/api/operations.ts, where each operation is declared once
 * (`npm run generate:routes`; a unit test fails while they differ). The key is the operationId.
 */
export const routes = generatedRoutes satisfies Record<string, Route>;

export { apiPath, type HttpMethod, type Route } from './paths';
