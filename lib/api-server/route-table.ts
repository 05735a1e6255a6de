/**
 * Matching request paths to the app's API route modules (app/api/…/route.ts) the way Next's App
 * Router does, for the lean API server: `[name]` is one segment, `[...name]` one or more,
 * `[[...name]]` zero or more. Static segments win over dynamic ones, dynamic over catch-alls.
 */
export type RouteModule = Partial<
  Record<string, (request: Request, context: { params: Promise<Record<string, unknown>> }) => Promise<Response>>
>;

export type RouteEntry = { pattern: string; module: RouteModule };

type Segment = { kind: 'static'; text: string } | { kind: 'param'; name: string } | { kind: 'catchAll'; name: string; optional: boolean };

type CompiledRoute = { segments: Segment[]; module: RouteModule; rank: number[] };

function parseSegment(text: string): Segment {
  const optional = /^\[\[\.\.\.(\w+)\]\]$/.exec(text);
  if (optional) return { kind: 'catchAll', name: optional[1]!, optional: true };
  const catchAll = /^\[\.\.\.(\w+)\]$/.exec(text);
  if (catchAll) return { kind: 'catchAll', name: catchAll[1]!, optional: false };
  const param = /^\[(\w+)\]$/.exec(text);
  if (param) return { kind: 'param', name: param[1]! };
  return { kind: 'static', text };
}

const RANK = { static: 0, param: 1, catchAll: 2 } as const;

export class RouteTable {
  private readonly routes: CompiledRoute[];

  constructor(entries: RouteEntry[]) {
    this.routes = entries
      .map(({ pattern, module }) => {
        const segments = pattern.split('/').filter(Boolean).map(parseSegment);
        return { segments, module, rank: segments.map((segment) => RANK[segment.kind]) };
      })
      .sort((a, b) => compareRanks(a.rank, b.rank));
  }

  /** The module and its params (decoded), or undefined; throws URIError for a path that does not decode. */
  match(pathname: string): { module: RouteModule; params: Record<string, string | string[]> } | undefined {
    const parts = pathname.split('/').filter(Boolean);
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (params) return { module: route.module, params };
    }
    return undefined;
  }
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (a[i] ?? -1) - (b[i] ?? -1);
    if (difference !== 0) return difference;
  }
  return 0;
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, string | string[]> | undefined {
  const params: Record<string, string | string[]> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment.kind === 'catchAll') {
      const rest = parts.slice(i).map((part) => decodeURIComponent(part));
      if (rest.length === 0 && !segment.optional) return undefined;
      if (rest.length > 0) params[segment.name] = rest;
      return params;
    }
    const part = parts[i];
    if (part === undefined) return undefined;
    if (segment.kind === 'static') {
      if (part !== segment.text) return undefined;
    } else params[segment.name] = decodeURIComponent(part);
  }
  return parts.length === segments.length ? params : undefined;
}
