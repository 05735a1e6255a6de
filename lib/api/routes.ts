/**
 * Every API operation's method and path, for the browser: the console's code imports this
 * (apiPath) without the operations' documentation and schemas, which stay on the server. The
 * entries are generated from lib/api/operations.ts, where each operation is declared once
 * (`npm run generate:routes`; a unit test fails while they differ), one export per operation
 * named by its operationId.
 *
 * The browser's code imports the routes it calls by name (`import { listSlots }`), so a page's
 * bundle carries those alone; the server and the tests may use the whole table, `routes`.
 */
export * from './routes.generated';
export * as routes from './routes.generated';

export { apiPath, type HttpMethod, type Route } from '@/lib/http/paths';
