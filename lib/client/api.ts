import type { FieldError } from '@/lib/validation/issues';
import type { Locale } from '@/lib/i18n/locale';
import { PORTAL_API_PREFIX, PORTAL_PATH } from '@/lib/portal/cookie';

/**
 * The browser's fetch of the API: same-origin, at the API base of the page's surface with that
 * surface's session cookie, the UI language in Accept-Language (so 400 field messages come back in
 * it), and problem+json turned into ApiProblem.
 */
export type Problem = {
  type?: string;
  title?: string;
  status: number;
  detail?: string;
  errors?: FieldError[];
  /** A quota or rate limit's refusal: the limit reached (issue 27). */
  limite?: number;
  /** The answer's Retry-After, in seconds, when it had one. */
  retryAfterSeconds?: number;
};

export class ApiProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title ?? `HTTP ${problem.status}`);
    this.name = 'ApiProblem';
  }
  get status(): number {
    return this.problem.status;
  }
}

export type ApiResult<T> = { status: number; body: T; headers: Headers };

/** Set when this page signs out: the API's 401s that follow are expected, not an expired session. */
let signingOut = false;

export function markSigningOut(): void {
  signingOut = true;
}

/**
 * Where a page's browser code calls the API, set by its layout (lib/client/api-base.tsx): the
 * console at /api with the staff session; the partner portal at /portal/api, the same operations
 * with the portal's cookie (lib/portal/cookie.ts), which the browser sends nowhere else.
 */
export const API_BASES = { console: '/api', portal: `${PORTAL_API_PREFIX}/api` } as const;
export type ApiBase = (typeof API_BASES)[keyof typeof API_BASES];

/** Who calls: the reader's language and the page's API base (useApiCaller() in lib/client/api-base.tsx). */
export type ApiCaller = { locale: Locale; base: ApiBase };

/** An operation's path (apiPath, under /api) at the API base `base`. */
export function apiUrl(base: ApiBase, path: string): string {
  if (!path.startsWith('/api/')) throw new Error(`apiUrl: ${path} is not an API path`);
  return `${base}${path.slice('/api'.length)}`;
}

/** The API at the caller's base (useApiCaller(): the page's layout chose it). */
export async function apiFetch({ locale, base }: ApiCaller, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json');
  headers.set('Accept-Language', locale);
  if (init.body !== undefined) headers.set('Content-Type', 'application/json');
  const response = await fetch(apiUrl(base, path), {
    ...init,
    headers,
    credentials: 'same-origin',
    cache: 'no-store',
  });
  if (response.status === 401 && base === API_BASES.portal) {
    // The portal session ended (expired or revoked): the portal's entry page says so; never the staff sign-in.
    window.location.assign(new URL(`${PORTAL_PATH}/entrar?encerrada=1`, window.location.origin));
  } else if (response.status === 401 && typeof window !== 'undefined' && !signingOut) {
    // The session ended (expiry or sign-out elsewhere): back to sign-in, then here again.
    const back = window.location.pathname + window.location.search;
    window.location.assign(new URL(`/sign-in?expired=1&callbackUrl=${encodeURIComponent(back)}`, window.location.origin));
  }
  return response;
}

export async function readProblem(response: Response): Promise<Problem> {
  const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
  const fallback: Problem = {
    status: response.status,
    title: response.statusText,
    ...(Number.isFinite(retryAfter) ? { retryAfterSeconds: retryAfter } : {}),
  };
  try {
    const body = (await response.json()) as Partial<Problem>;
    return { ...fallback, ...body, status: response.status };
  } catch {
    return fallback;
  }
}

/** GET/PUT helpers for routes whose non-2xx answers are problems. */
export async function apiJson<T>(caller: ApiCaller, path: string, init: RequestInit = {}): Promise<ApiResult<T>> {
  const response = await apiFetch(caller, path, init);
  if (!response.ok) throw new ApiProblem(await readProblem(response));
  return { status: response.status, body: (await response.json()) as T, headers: response.headers };
}
