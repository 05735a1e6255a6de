'use client';
import { useQuery } from '@tanstack/react-query';
import { apiPath, listWaitlistLines } from '@/lib/api/routes';
import type { WaitlistLine } from '@/lib/scheduling/waitlist-contract';
import { apiJson } from './api';
import { schedulingKeys } from './query-keys';
import { useApiCaller } from './api-base';

/** Each exam's line and offers out; looked at again every few seconds, as offers come and go on their own. */
export function useWaitlistLines({ refresh = true }: { refresh?: boolean } = {}) {
  const api = useApiCaller();
  return useQuery({
    queryKey: schedulingKeys.waitlist,
    queryFn: async () => (await apiJson<WaitlistLine[]>(api, apiPath(listWaitlistLines))).body,
    refetchInterval: refresh ? 3000 : false,
  });
}
