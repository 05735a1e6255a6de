'use client';
import { useState } from 'react';
import { apiPath, type Route } from '@/lib/api/routes';
import { ApiProblem, apiFetch, readProblem, type Problem } from '@/lib/client/api';
import { useApiCaller } from '@/lib/client/api-base';

export type LinkRequestState = { status: 'idle' | 'pending' | 'done' } | { status: 'failed'; error: unknown };

/**
 * The one request a one-time link's page sends with its token (setting a password, confirming a
 * technical contact), and where it stands: plain state, not TanStack Query, as these public pages
 * live outside the console's providers. `problem`: the refusal, when the API answered one.
 */
export function useLinkRequest(route: Route): {
  state: LinkRequestState;
  problem: Problem | undefined;
  send: (body: unknown) => Promise<void>;
} {
  const api = useApiCaller();
  const [state, setState] = useState<LinkRequestState>({ status: 'idle' });
  async function send(body: unknown) {
    setState({ status: 'pending' });
    try {
      const response = await apiFetch(api, apiPath(route), { method: 'POST', body: JSON.stringify(body) });
      if (!response.ok) throw new ApiProblem(await readProblem(response));
      setState({ status: 'done' });
    } catch (error) {
      setState({ status: 'failed', error });
    }
  }
  const problem = state.status === 'failed' && state.error instanceof ApiProblem ? state.error.problem : undefined;
  return { state, problem, send };
}
