'use client';
import { useQuery } from '@tanstack/react-query';
import type { Delivery, DeliveryDetail, DeliveryStatus } from '@/lib/webhooks/delivery/contract';
import type { AlertPage, DeliveryHealth, HealthWindow, TriagePage } from '@/lib/webhooks/delivery/health-contract';
import { useLocale } from '@/lib/i18n/client';
import { apiPath, deliveryHealth, deliveryTriage, getDelivery, listDeliveries, listDeliveryAlerts } from '@/lib/api/routes';
import { ALERTS_PAGE_SIZE, TRIAGE_PAGE_SIZE } from '@/lib/webhooks/delivery/fields';
import { apiJson } from './api';
import { webhookKeys } from './webhook-query-keys';

/**
 * Fetchers for webhook deliveries: the log, one delivery, health, triage and alerts. Apart from
 * webhook-queries.ts because the pages load these after their first load, with the parts that use them.
 */

/** Health figures are by the hour: a minute's refresh keeps the current hour and the state current. */
const HEALTH_REFRESH_MS = 60_000;

/** While a delivery is pending the log refreshes itself: staff watch a test event arrive. */
const PENDING_REFRESH_MS = 2000;

export function useDeliveries(id: string, status: DeliveryStatus | '', event = '') {
  const locale = useLocale();
  return useQuery({
    queryKey: webhookKeys.deliveries(id, status, event),
    queryFn: async () => {
      const query = new URLSearchParams({ ...(status ? { status } : {}), ...(event ? { evento: event } : {}) }).toString();
      return (await apiJson<Delivery[]>(locale, `${apiPath(listDeliveries, { id })}${query ? `?${query}` : ''}`)).body;
    },
    refetchInterval: (query) => (query.state.data?.some((delivery) => delivery.status === 'pendente') ? PENDING_REFRESH_MS : false),
    placeholderData: (previous) => previous,
  });
}

export function useDeliveryDetail(id: string, deliveryId: string) {
  const locale = useLocale();
  return useQuery({
    queryKey: webhookKeys.delivery(id, deliveryId),
    queryFn: async () => (await apiJson<DeliveryDetail>(locale, apiPath(getDelivery, { id, entregaId: deliveryId }))).body,
    refetchInterval: (query) => (query.state.data?.status === 'pendente' ? PENDING_REFRESH_MS : false),
  });
}

export function useDeliveryHealth(id: string, window: HealthWindow) {
  const locale = useLocale();
  return useQuery({
    queryKey: webhookKeys.health(id, window),
    queryFn: async () => (await apiJson<DeliveryHealth>(locale, `${apiPath(deliveryHealth, { id })}?janela=${window}`)).body,
    placeholderData: (previous) => previous,
    refetchInterval: HEALTH_REFRESH_MS,
  });
}

const pageQuery = (page: number, size: number) => `?${new URLSearchParams({ limite: String(size), pagina: String(page) })}`;

export function useDeliveryTriage(page: number) {
  const locale = useLocale();
  return useQuery({
    queryKey: webhookKeys.triage(page),
    queryFn: async () => (await apiJson<TriagePage>(locale, `${apiPath(deliveryTriage)}${pageQuery(page, TRIAGE_PAGE_SIZE)}`)).body,
    refetchInterval: HEALTH_REFRESH_MS,
    placeholderData: (previous) => previous,
  });
}

export function useDeliveryAlerts(page: number) {
  const locale = useLocale();
  return useQuery({
    queryKey: webhookKeys.alerts(page),
    queryFn: async () => (await apiJson<AlertPage>(locale, `${apiPath(listDeliveryAlerts)}${pageQuery(page, ALERTS_PAGE_SIZE)}`)).body,
    refetchInterval: HEALTH_REFRESH_MS,
    placeholderData: (previous) => previous,
  });
}
