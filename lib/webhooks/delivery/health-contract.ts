import { z } from 'zod';
import { HEALTH_STATES, HEALTH_WINDOWS, WINDOW_HOURS, type HealthState, type HealthWindow } from './fields';

/**
 * Delivery health (issue 20 §3): how a configuration's delivery attempts went, hour by hour, for
 * the console's chart and the triage list. Figures come from the delivery log (the database), not from
 * the metrics endpoint, so they are every instance's and survive restarts. No server imports: the
 * console reads its answers with these schemas.
 */
export { HEALTH_STATES, HEALTH_WINDOWS, WINDOW_HOURS, type HealthState, type HealthWindow };

export const healthQuerySchema = z.strictObject({
  janela: z.enum(HEALTH_WINDOWS).default('24h').meta({ description: 'The last 24 hours or the last 7 days, hour by hour.' }),
});

const count = z.number().int().min(0);

/** One hour of a configuration's attempts: a delivery retried three times counts three attempts. */
export const healthHourSchema = z.object({
  inicio: z.string().meta({ format: 'date-time', description: 'Start of the hour (UTC).' }),
  entregues: count.meta({ description: 'Attempts the receiver answered with a 2xx.' }),
  falhas: count.meta({ description: 'Attempts that failed: another status, a timeout, a refused connection…' }),
  latenciaMediaMs: z.number().nullable().meta({ description: 'Mean time the receiver took to answer this hour’s attempts.' }),
});
export type HealthHour = z.infer<typeof healthHourSchema>;

export const healthTotalsSchema = z.object({
  entregues: count,
  falhas: count,
  taxaSucesso: z.number().min(0).max(1).nullable().meta({ description: 'entregues / (entregues + falhas); null without attempts.' }),
  filtradas: count.optional().meta({
    description:
      'Events of the window its payload control did not send (`filtrada`: its filter, or its transformation cancelled them); one configuration’s health only.',
  }),
});

export const healthStatusSchema = z.object({
  estado: z.enum(HEALTH_STATES),
  desde: z.string().nullable().meta({ format: 'date-time', description: 'Since when it fails, is paused or is off.' }),
  ate: z.string().nullable().meta({ format: 'date-time', description: 'While the circuit is open: when the next probe goes.' }),
  motivo: z.string().nullable().meta({ description: 'Why deliveries were switched off (`desativada`).' }),
  devidas: count.meta({ description: 'Pending deliveries whose attempt is due now (the backlog).' }),
  maisAntigaDevidaDesde: z.string().nullable().meta({ format: 'date-time', description: 'Due time of the oldest of them.' }),
  aguardandoNovaTentativa: count.meta({ description: 'Pending deliveries waiting for a later attempt (a retry after a failure).' }),
  retidaPor: z.enum(['limite-de-taxa', 'pausa-do-receptor']).nullable().meta({
    description:
      'What holds its due deliveries back, if anything but the state: its rate limit (`limiteEntregasPorSegundo`), or a pause its receiver asked for (429 or 503 with Retry-After).',
  }),
});

export const deliveryHealthSchema = z.object({
  janela: z.enum(HEALTH_WINDOWS),
  horas: z.array(healthHourSchema),
  totais: healthTotalsSchema,
  situacao: healthStatusSchema,
});
export type DeliveryHealth = z.infer<typeof deliveryHealthSchema>;

/** An open delivery alert (issue 20 §4): a configuration switched off by the worker, or whose receiver has been down too long. */
export const deliveryAlertSchema = z.object({
  id: z.string(),
  configuracaoId: z.string(),
  url: z.string(),
  usuarioId: z.string().meta({ description: 'The tenant the configuration belongs to.' }),
  tipo: z.enum(['desativada', 'circuito-aberto']),
  desde: z.string().meta({ format: 'date-time', description: 'When the incident began.' }),
});
export type DeliveryAlert = z.infer<typeof deliveryAlertSchema>;

export const triageItemSchema = z.object({
  id: z.string(),
  url: z.string(),
  usuarioId: z.string(),
  clientId: z.string().nullable(),
  situacao: healthStatusSchema,
  alerta: deliveryAlertSchema
    .pick({ tipo: true, desde: true })
    .nullable()
    .meta({ description: 'The open alert on this configuration, if any (listed first).' }),
  totais: healthTotalsSchema.meta({ description: 'The last 24 hours.' }),
  horas: z
    .array(z.object({ entregues: count, falhas: count }))
    .meta({ description: 'The last 24 hours, oldest first, one entry an hour: the sparkline.' }),
});
export type TriageItem = z.infer<typeof triageItemSchema>;

/**
 * The staff lists' pages (issue 27): triage and alerts, worst first, `limite` a page. Each tenant's
 * worst comes before any tenant's second worst of the same kind, so no tenant's number of
 * configurations pushes another's incident off the first page.
 */
export const STAFF_PAGE_MAX = 200;
export const pageQuerySchema = z.strictObject({
  limite: z.coerce.number().int().min(1).max(STAFF_PAGE_MAX).default(50),
  pagina: z.coerce.number().int().min(1).max(1_000_000).default(1),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    itens: z.array(item),
    total: count.meta({ description: 'How many there are in all pages.' }),
    pagina: z.number().int().min(1),
    limite: z.number().int().min(1),
  });
}
export const triagePageSchema = pageOf(triageItemSchema);
export type TriagePage = z.infer<typeof triagePageSchema>;
export const alertPageSchema = pageOf(deliveryAlertSchema);
export type AlertPage = z.infer<typeof alertPageSchema>;
