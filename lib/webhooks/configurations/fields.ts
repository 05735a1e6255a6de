/**
 * The configuration contract's fixed values, without zod: the console's first load imports these,
 * and the schema (contract.ts) only when a form is checked.
 */
/** The highest rate limit a configuration may ask for (`limiteEntregasPorSegundo`, issue 31). */
export const MAX_DELIVERIES_PER_SECOND = 10_000;

/** Why deliveries stopped: switched off by someone, a 410 Gone from the receiver, or failing too long. */
export const DISABLED_REASONS = ['manual', 'receptor-410', 'falhas-consecutivas'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];
