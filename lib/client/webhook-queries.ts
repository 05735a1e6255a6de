'use client';
import { useQuery } from '@tanstack/react-query';
import type { WebhookDetail, WebhookView } from '@/lib/webhooks/configurations/contract';
import { apiPath, getWebhookConfiguration, listWebhookConfigurations } from '@/lib/api/routes';
import { apiJson } from './api';
import { loadedWebhook, webhookKeys, type LoadedWebhook } from './webhook-query-keys';
import { useApiCaller } from './api-base';

/**
 * Fetchers for webhook configurations, shared by the list and the editor. Their deliveries' are in
 * delivery-queries.ts, loaded with the parts of the pages that show them.
 */
export { webhookKeys, type LoadedWebhook };

export function useWebhookList(search: string) {
  const api = useApiCaller();
  return useQuery({
    queryKey: webhookKeys.list(search),
    queryFn: async () => {
      const query = search ? `?q=${encodeURIComponent(search)}` : '';
      return (await apiJson<WebhookView[]>(api, `${apiPath(listWebhookConfigurations)}${query}`)).body;
    },
    placeholderData: (previous) => previous,
  });
}

export function useWebhook(id: string) {
  const api = useApiCaller();
  return useQuery({
    queryKey: webhookKeys.detail(id),
    queryFn: async (): Promise<LoadedWebhook> => {
      const { body, headers } = await apiJson<WebhookDetail>(api, apiPath(getWebhookConfiguration, { id }));
      return loadedWebhook(body, headers);
    },
  });
}
