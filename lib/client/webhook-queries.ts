'use client';
import { useQuery } from '@tanstack/react-query';
import type { WebhookConfiguration } from '@/lib/webhooks/contract';
import { useLocale } from '@/lib/i18n/client';
import { apiPath, operations } from '@/lib/api/operations';
import { apiJson } from './api';

/** Query keys and fetchers for webhook configurations, shared by the list and the editor. */

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: (search: string) => ['webhooks', 'list', search] as const,
  detail: (id: string) => ['webhooks', 'detail', id] as const,
};

export type LoadedWebhook = { config: WebhookConfiguration; etag: string };

export function useWebhookList(search: string) {
  const locale = useLocale();
  return useQuery({
    queryKey: webhookKeys.list(search),
    queryFn: async () => {
      const query = search ? `?q=${encodeURIComponent(search)}` : '';
      return (await apiJson<WebhookConfiguration[]>(locale, `${apiPath(operations.listWebhookConfigurations)}${query}`)).body;
    },
    placeholderData: (previous) => previous,
  });
}

export function useWebhook(id: string) {
  const locale = useLocale();
  return useQuery({
    queryKey: webhookKeys.detail(id),
    queryFn: async (): Promise<LoadedWebhook> => {
      const { body, headers } = await apiJson<WebhookConfiguration>(locale, apiPath(operations.getWebhookConfiguration, { id }));
      return { config: body, etag: headers.get('etag') ?? '' };
    },
  });
}
