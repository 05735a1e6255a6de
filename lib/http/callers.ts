import type { Principal } from '@/lib/auth/principal';
import { problems } from './errors';
import { isSameOrigin } from './same-origin';

/**
 * Who may call the API on a path, and how each is recognised: the authenticators the route wrapper
 * (route.ts) tries, and the policies it runs around the operation. The wrapper knows no caller
 * type itself: the console's and the API clients' live in authenticators.ts, the portal's in
 * lib/portal/callers.ts, and the composition root (lib/api/callers.ts) says which path admits which.
 */

/** Methods that change nothing; any other is a change. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** One way in: a kind of caller and the credential it brings. */
export type Authenticator = {
  /** What it is called in the docs and in tests. */
  name: string;
  /** Whether the request brings this authenticator's credential. The first in the list that applies decides; none that applies is 401. */
  applies(request: Request): boolean;
  /**
   * The caller the credential stands for, or undefined when it stands for no one (401). An
   * authenticator with a refusal of its own (an invalid Bearer token's) throws it instead.
   */
  authenticate(request: Request): Promise<Principal | undefined>;
  /**
   * `cookie`: the browser sends it on its own, on cross-site requests too, so a change made with it
   * must prove that one of our own pages sent it (same origin). A header is never sent that way.
   */
  credential: 'cookie' | 'header';
};

/** An authenticated call, as the policies see it. */
export type Call = {
  request: Request;
  principal: Principal;
  /** The operation's id: what the audit trail names. */
  operationId: string;
  /** The path's params as the router decoded them (before the operation's schema). */
  params: Record<string, string>;
  /** A change (any method but GET, HEAD and OPTIONS), or a read that hands over a secret (the operation is `sensitive`). */
  changesOrReadsSecret: boolean;
};

/** Runs once the caller holds the operation's capability, before the handler: throws a refusal (`refuse.…`, lib/errors) to refuse (a read-only session's change). */
export type BeforePolicy = (call: Call) => void | Promise<void>;

/** Runs after every authenticated call, refused ones too, with the status answered (the portal's audit trail). */
export type AfterPolicy = (call: Call, status: number) => Promise<void>;

export type Callers = {
  authenticators: readonly Authenticator[];
  before?: readonly BeforePolicy[];
  after?: readonly AfterPolicy[];
};

/** The callers a request's path admits: the composition root's choice (lib/api/callers.ts). */
export type CallersOf = (request: Request) => Callers;

export function changesOrReadsSecret(request: Request, operation: { sensitive?: true }): boolean {
  return !SAFE_METHODS.has(request.method) || operation.sensitive === true;
}

/** The caller, by the first authenticator that applies; 401 when none does or its credential stands for no one. */
export async function authenticateCaller(request: Request, callers: Callers): Promise<Principal> {
  const authenticator = callers.authenticators.find((candidate) => candidate.applies(request));
  if (!authenticator) throw problems.unauthorized();
  const principal = await authenticator.authenticate(request);
  if (!principal) throw problems.unauthorized();
  if (authenticator.credential === 'cookie' && !SAFE_METHODS.has(request.method) && !isSameOrigin(request)) throw problems.crossOrigin();
  return principal;
}
