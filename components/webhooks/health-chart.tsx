'use client';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { HealthHour } from '@/lib/webhooks/delivery/health-contract';
import { chartColumns, COUNT_STEPS, countRange, timeRange } from './health-chart-data';

/**
 * The delivery-health chart: attempts delivered and failed per hour as bars, the receiver's mean
 * answer time as a line on its own axis, hours in Brasília time. uPlot (about 50 KB, canvas) is
 * loaded only by the pages that draw this chart (next/dynamic in delivery-health-card.tsx); what it
 * draws is health-chart-data.ts's. The
 * canvas is an image to assistive technology: the card labels it with the totals and offers the
 * same figures as a table.
 */
type Labels = { hour: string; delivered: string; failed: string; latency: string };

const HEIGHT = 220;
const COLORS = { delivered: '#059669', failed: '#dc2626', latency: '#4f46e5' }; // emerald-600, red-600, indigo-600

/** Hours as the reader writes them, in Brasília time: 24/11 18:00 in pt-BR. */
function hourFormat(locale: string) {
  const format = new Intl.DateTimeFormat(locale, {
    timeZone: 'America/Sao_Paulo',
    day: '2-digit',
    month: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  return (seconds: number) => format.format(new Date(seconds * 1000));
}

/** A bar's figure in the legend: an hour without such attempts has no bar (null), and 0 of them. */
const count = (_: uPlot, value: number | null) => String(value ?? 0);

function optionsOf(width: number, labels: Labels, locale: string, hours: { current: readonly HealthHour[] }): uPlot.Options {
  const hour = hourFormat(locale);
  const bars = (align: -1 | 1) => uPlot.paths.bars!({ size: [0.4, 24], align });
  return {
    width,
    height: HEIGHT,
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'America/Sao_Paulo'),
    cursor: { drag: { x: false, y: false } },
    legend: { show: true },
    // Without the pointer on the chart, the legend shows the latest hour with attempts, not dashes.
    hooks: {
      setCursor: [
        (plot) => {
          if (plot.cursor.idx == null) showLatestHour(plot);
        },
      ],
    },
    scales: {
      // Whole hours, the current one's end included (health-chart-data.ts).
      x: { time: true, range: (_, min, max) => timeRange(hours.current) ?? [min, max] },
      count: { range: (_, __, max) => countRange(max) },
      ms: { range: (_, __, max) => [0, Math.max(1, max)] },
    },
    axes: [
      { values: (_, ticks) => ticks.map((tick) => hour(tick)), space: 90 },
      { scale: 'count', size: 48, incrs: COUNT_STEPS },
      { scale: 'ms', side: 1, size: 56, grid: { show: false }, values: (_, ticks) => ticks.map((tick) => `${tick} ms`) },
    ],
    series: [
      { label: labels.hour, value: (_, seconds) => (seconds === null ? '--' : hour(seconds)) },
      {
        label: labels.delivered,
        scale: 'count',
        fill: COLORS.delivered,
        stroke: COLORS.delivered,
        paths: bars(-1),
        points: { show: false },
        value: count,
      },
      {
        label: labels.failed,
        scale: 'count',
        fill: COLORS.failed,
        stroke: COLORS.failed,
        paths: bars(1),
        points: { show: false },
        value: count,
      },
      {
        label: labels.latency,
        scale: 'ms',
        stroke: COLORS.latency,
        width: 2,
        spanGaps: false,
        value: (_, ms) => (ms === null ? '–' : `${Math.round(ms)} ms`),
      },
    ],
  };
}

/** The legend's figures for the latest hour with attempts (or the latest hour), as if the pointer were there. */
function showLatestHour(plot: uPlot) {
  const [hours, delivered, failed] = plot.data;
  let latest = hours.length - 1;
  while (latest > 0 && !(delivered?.[latest] ?? 0) && !(failed?.[latest] ?? 0)) latest--;
  if (latest >= 0) plot.setLegend({ idx: latest }, false);
}

export function HealthChart({ hours, labels, locale }: { hours: readonly HealthHour[]; labels: Labels; locale: string }) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  // The figures the time axis is ranged by; read by uPlot when it draws, after each setData.
  const shown = useRef(hours);

  // One chart per language; new figures only replace its data.
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const plot = new uPlot(optionsOf(element.clientWidth, labels, locale, shown), [[], [], [], []], element);
    chart.current = plot;
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
      chart.current = null;
    };
  }, [labels, locale]);

  useEffect(() => {
    shown.current = hours;
    const plot = chart.current;
    if (!plot) return;
    plot.setData(chartColumns(hours));
    showLatestHour(plot);
  }, [hours, labels]);

  return <div ref={container} className="w-full" data-testid="health-chart" />;
}
