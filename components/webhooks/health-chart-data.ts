import type { HealthHour } from '@/lib/webhooks/delivery/health-contract';

/**
 * What the delivery-health chart draws, apart from uPlot so it can be tested alone. Each hour is
 * plotted at its middle, delivered to the left of it and failed to the right, and the time axis
 * ends where the current hour does: the last hour's bars stay whole inside the plot (its failures
 * were once cut off at the right edge). An hour without attempts has no bar at all (null), rather
 * than a zero-height one drawn as a dash on the baseline.
 */
export const HOUR_S = 3600;

export type ChartColumns = [x: number[], delivered: (number | null)[], failed: (number | null)[], latency: (number | null)[]];

export function chartColumns(hours: readonly HealthHour[]): ChartColumns {
  const bar = (count: number) => (count > 0 ? count : null);
  return [
    hours.map((hour) => Date.parse(hour.inicio) / 1000 + HOUR_S / 2),
    hours.map((hour) => bar(hour.entregues)),
    hours.map((hour) => bar(hour.falhas)),
    hours.map((hour) => hour.latenciaMediaMs),
  ];
}

/** The time axis: from the first hour's start to the last hour's end (seconds). */
export function timeRange(hours: readonly HealthHour[]): [number, number] | null {
  if (hours.length === 0) return null;
  return [Date.parse(hours[0]!.inicio) / 1000, Date.parse(hours[hours.length - 1]!.inicio) / 1000 + HOUR_S];
}

/** The count axis's steps: whole attempts only (never 0,5 or 1,5). */
export const COUNT_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000, 20_000, 50_000, 100_000];

/** The count axis runs from 0 to at least 1, so a lone attempt is a full-height bar. */
export function countRange(max: number | null): [number, number] {
  return [0, Math.max(1, Math.ceil(max ?? 0))];
}
