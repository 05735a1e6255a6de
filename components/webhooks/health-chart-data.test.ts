import { describe, expect, it } from 'vitest';
import { chartColumns, COUNT_STEPS, countRange, timeRange } from './health-chart-data';

const hour = (inicio: string, entregues: number, falhas: number) => ({
  inicio,
  entregues,
  falhas,
  latenciaMediaMs: entregues + falhas > 0 ? 120 : null,
});

describe('the delivery-health chart’s figures', () => {
  const hours = [hour('2026-11-25T16:00:00.000Z', 0, 0), hour('2026-11-25T17:00:00.000Z', 2, 6)];

  it('plots each hour at its middle, and the time axis ends with the current hour', () => {
    const [x] = chartColumns(hours);
    expect(x).toEqual([Date.parse('2026-11-25T16:30:00Z') / 1000, Date.parse('2026-11-25T17:30:00Z') / 1000]);
    expect(timeRange(hours)).toEqual([Date.parse('2026-11-25T16:00:00Z') / 1000, Date.parse('2026-11-25T18:00:00Z') / 1000]);
    expect(timeRange([])).toBeNull();
  });

  it('draws no bar for an hour without attempts, and the counts of one with some', () => {
    const [, delivered, failed, latency] = chartColumns(hours);
    expect(delivered).toEqual([null, 2]);
    expect(failed).toEqual([null, 6]);
    expect(latency).toEqual([null, 120]);
  });

  it('counts in whole attempts, from 0 to at least 1', () => {
    expect(COUNT_STEPS.every(Number.isInteger)).toBe(true);
    expect(countRange(null)).toEqual([0, 1]);
    expect(countRange(1)).toEqual([0, 1]);
    expect(countRange(6)).toEqual([0, 6]);
  });
});
