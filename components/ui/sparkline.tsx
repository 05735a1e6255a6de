/**
 * A day at a glance: one thin bar an hour, its height the hour's volume, red where attempts failed.
 * Plain SVG (no chart library): a list of forty configurations draws forty of these. The numbers
 * are in `label`, for screen readers and as the tooltip.
 */
export function Sparkline({ points, label }: { points: readonly { ok: number; failed: number }[]; label: string }) {
  const width = 96;
  const height = 24;
  const step = width / Math.max(points.length, 1);
  const max = Math.max(1, ...points.map((point) => point.ok + point.failed));
  return (
    <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} className="shrink-0">
      <title>{label}</title>
      <line x1={0} x2={width} y1={height - 0.5} y2={height - 0.5} className="stroke-slate-200" />
      {points.map((point, i) => {
        const okHeight = (point.ok / max) * height;
        const failedHeight = (point.failed / max) * height;
        return (
          <g key={i}>
            <rect x={i * step + 0.5} width={Math.max(step - 1, 1)} y={height - okHeight} height={okHeight} className="fill-emerald-500" />
            <rect
              x={i * step + 0.5}
              width={Math.max(step - 1, 1)}
              y={height - okHeight - failedHeight}
              height={failedHeight}
              className="fill-red-600"
            />
          </g>
        );
      })}
    </svg>
  );
}
