/** An operation's method and path template, and filling the template in: shared by the server and the browser. */
// No PATCH: scripts/server-entry.mjs hands TRACE to the app as PATCH, to be refused with 405.
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type Route = { method: HttpMethod; path: string };

/** The operation's path with its `{name}` parameters filled in (URI-encoded). */
export function apiPath(route: Route, params: Record<string, string | number> = {}): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`apiPath: missing ${name} for ${route.path}`);
    return encodeURIComponent(String(value));
  });
}
