'use client';
import { useQuery } from '@tanstack/react-query';
import type { Delivery, DeliveryDetail, DeliveryStatus } from '@/lib/webhooks/delivery/contract';
import type { AlertPage, DeliveryHealth, HealthWindow, TriagePage } from '@/lib/webhooks/delivery/health-contract';
import { apiPath, deliveryHealth, deliveryTriage, getDelivery, listDeliveries, listDeliveryAlerts } from '@/lib/api/routes';
import { ALERTS_PAGE_SIZE, TRIAGE_PAGE_SIZE } from '@/lib/webhooks/delivery/fields';
import { apiJson } from './api';
import { webhookKeys } from './webhook-query-keys';
import { useApiCaller } from './api-base';

/**
 * Fetchers for webhook deliveries: the log, one delivery, health, triage and alerts. Apart from
 * webhook-queries.ts because the pages load these after their first load, with the parts that use them.
 */

/** Health figures are by the hour: a minute's refresh keeps the current hour and the state current. */
const HEALTH_REFRESH_MS = 60_000;

/** While a delivery is pending the log refreshes itself: staff watch a test event arrive. */
const PENDING_REFRESH_MS = 2000;

export function useDeliveries(id: string, status: DeliveryStatus | '', event = '') {
  const api = useApiCaller();
  return useQuery({
    queryKey: webhookKeys.deliveries(id, status, event),
    queryFn: async () => {
      const query = new URLSearchParams({ ...(status ? { status } : {}), ...(event ? { evento: event } : {}) }).toString();
      return (await apiJson<Delivery[]>(api, `${apiPath(listDeliveries, { id })}${query ? `?${query}` : ''}`)).body;
    },
    refetchInterval: (query) => (query.state.data?.some((delivery) => delivery.status === 'pendente') ? PENDING_REFRESH_MS : false),
    placeholderData: (previous) => previous,
  });
}

export function useDeliveryDetail(id: string, deliveryId: string) {
  const api = useApiCaller();
  return useQuery({
    queryKey: webhookKeys.delivery(id, deliveryId),
    queryFn: async () => (await apiJson<DeliveryDetail>(api, apiPath(getDelivery, { id, entregaId: deliveryId }))).body,
    refetchInterval: (query) => (query.state.data?.status === 'pendente' ? PENDING_REFRESH_MS : false),
  });
}

export function useDeliveryHealth(id: string, window: HealthWindow) {
  const api = useApiCaller();
  return useQuery({
    queryKey: webhookKeys.health(id, window),
    queryFn: async () => (await apiJson<DeliveryHealth>(api, `${apiPath(deliveryHealth, { id })}?janela=${window}`)).body,
    placeholderData: (previous) => previous,
    refetchInterval: HEALTH_REFRESH_MS,
  });
}

const pageQuery = (page: number, size: number) => `?${new URLSearchParams({ limite: String(size), pagina: String(page) })}`;

export function useDeliveryTriage(page: number) {
  const api = useApiCaller();
  return useQuery({
    queryKey: webhookKeys.triage(page),
    queryFn: async () => (await apiJson<TriagePage>(api, `${apiPath(deliveryTriage)}${pageQuery(page, TRIAGE_PAGE_SIZE)}`)).body,
    refetchInterval: HEALTH_REFRESH_MS,
    placeholderData: (previous) => previous,
  });
}

export function useDeliveryAlerts(page: number) {
  const api = useApiCaller();
  return useQuery({
    queryKey: webhookKeys.alerts(page),
    queryFn: async () => (await apiJson<AlertPage>(api, `${apiPath(listDeliveryAlerts)}${pageQuery(page, ALERTS_PAGE_SIZE)}`)).body,
    refetchInterval: HEALTH_REFRESH_MS,
    placeholderData: (previous) => previous,
  });
}
