'use client';
/**
 * The reservation form's queries, loaded with the page; the listings its lazily loaded parts read
 * (calendar, slot table, recent reservations) are in slot-queries.ts, loaded with them.
 */
import { useQuery } from '@tanstack/react-query';
import type { Procedure } from '@/lib/scheduling/contract';
import { apiPath, listProcedures } from '@/lib/api/routes';
import { ApiProblem, apiJson } from './api';
import { schedulingKeys } from './query-keys';
import { useApiCaller } from './api-base';

export { schedulingKeys };

/** 501: the configured back-end has no exam listing, so the form asks for the code instead. */
export function isListingUnavailable(error: unknown): boolean {
  return error instanceof ApiProblem && error.status === 501;
}

/** The exams to choose nrSeqProcInterno from; they change rarely, so they are kept for minutes. */
export function useProcedures() {
  const api = useApiCaller();
  return useQuery({
    queryKey: schedulingKeys.procedures,
    queryFn: async () => (await apiJson<Procedure[]>(api, apiPath(listProcedures))).body,
    staleTime: 5 * 60_000,
    retry: (count, error) => !isListingUnavailable(error) && !(error instanceof ApiProblem && error.status < 500) && count < 2,
  });
}
