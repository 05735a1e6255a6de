'use client';
import { useQuery } from '@tanstack/react-query';
import type { WebhookDetail, WebhookView } from '@/lib/webhooks/configurations/contract';
import { useLocale } from '@/lib/i18n/client';
import { apiPath, getWebhookConfiguration, listWebhookConfigurations } from '@/lib/api/routes';
import { apiJson } from './api';
import { webhookKeys } from './webhook-query-keys';

/**
 * Fetchers for webhook configurations, shared by the list and the editor. Their deliveries' are in
 * delivery-queries.ts, loaded with the parts of the pages that show them.
 */
export { webhookKeys };

export type LoadedWebhook = { config: WebhookDetail; etag: string };

export function useWebhookList(search: string) {
  const locale = useLocale();
  return useQuery({
    queryKey: webhookKeys.list(search),
    queryFn: async () => {
      const query = search ? `?q=${encodeURIComponent(search)}` : '';
      return (await apiJson<WebhookView[]>(locale, `${apiPath(listWebhookConfigurations)}${query}`)).body;
    },
    placeholderData: (previous) => previous,
  });
}

export function useWebhook(id: string) {
  const locale = useLocale();
  return useQuery({
    queryKey: webhookKeys.detail(id),
    queryFn: async (): Promise<LoadedWebhook> => {
      const { body, headers } = await apiJson<WebhookDetail>(locale, apiPath(getWebhookConfiguration, { id }));
      return { config: body, etag: headers.get('etag') ?? '' };
    },
  });
}
