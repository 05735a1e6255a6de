/** Path rules the proxy applies before Next routes a request (no server imports: proxy.ts uses them). */
export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/** Whether every segment percent-decodes to UTF-8, as Next must do to fill dynamic route params. */
export function pathDecodes(pathname: string): boolean {
  try {
    for (const segment of pathname.split('/')) decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

const pathnames = new WeakMap<Request, string>();

/** The request's path, parsed from its URL once however many parts of a request ask (router, log lines). */
export function pathnameOf(request: Request): string {
  // The lean API server's requests carry the path they parsed (lib/api-server/request.ts).
  const known = (request as { pathname?: unknown }).pathname;
  if (typeof known === 'string') return known;
  let pathname = pathnames.get(request);
  if (pathname === undefined) {
    pathname = new URL(request.url).pathname;
    pathnames.set(request, pathname);
  }
  return pathname;
}
