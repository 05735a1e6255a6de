/**
 * The delivery contracts' fixed values, without zod: the console's first load imports these, and
 * the schemas (contract.ts and health-contract.ts, which re-export them) only when a form is
 * checked.
 */
// `filtrada` (issue 46): the configuration's filter let the event pass by, or its transformation cancelled it; never sent.
export const DELIVERY_STATUSES = ['pendente', 'entregue', 'falhou', 'ignorada', 'filtrada'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Delivery health's periods (health-contract.ts): the last 24 hours or 7 days, hour by hour. */
export const HEALTH_WINDOWS = ['24h', '7d'] as const;
export type HealthWindow = (typeof HEALTH_WINDOWS)[number];
export const WINDOW_HOURS: Record<HealthWindow, number> = { '24h': 24, '7d': 168 };

/**
 * Where a configuration stands, worst first: every attempt failing since a moment (`falhando`),
 * paused behind an open circuit (`circuito-aberto`), switched off (`desativada`), or delivering
 * (`saudavel`).
 */
export const HEALTH_STATES = ['falhando', 'circuito-aberto', 'desativada', 'saudavel'] as const;
export type HealthState = (typeof HEALTH_STATES)[number];

/** The console's staff lists (issue 27), paged worst first by the server: the triage page's rows a page. */
export const TRIAGE_PAGE_SIZE = 50;
/** The alert notice above every webhooks page stays short: a few at a time, the worst first. */
export const ALERTS_PAGE_SIZE = 5;
