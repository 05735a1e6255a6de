import { maskIdentifier } from '@/lib/audit/masking';
import { isPlainObject } from './filter';
import { DEFAULT_MASK_VISIBLE } from './limits';

/**
 * Field minimisation (issue 46 §2, the data-protection law's minimisation principle): rules, each a
 * JSON Pointer (RFC 6901) into the payload a receiver would get (`/data/paciente/cpf`) and what to
 * do there. `*` as a segment stands for every element of a list (or member of an object). Applied in
 * one order whatever the rules' order: `manter` first (where any rule keeps, only the kept fields
 * and the envelope's `type` and `timestamp` stay), then `remover`, then `mascarar` (a value keeps
 * its last characters, as the audit trail masks identifiers; an object or list has each of its
 * values masked). A pointer that reaches nothing in a payload does nothing to it.
 *
 * No server imports: the console's bench runs the same code.
 */
export const FIELD_ACTIONS = ['manter', 'remover', 'mascarar'] as const;
export type FieldAction = (typeof FIELD_ACTIONS)[number];
export type FieldRule = { ponteiro: string; acao: FieldAction; visiveis?: number };

/** The envelope a Standard Webhooks receiver reads: kept by any `manter` list, never removed nor masked. */
export const ENVELOPE_POINTERS = ['/type', '/timestamp'] as const;

export const WILDCARD = '*';

/** RFC 6901: `/a/b~1c` is ['a', 'b/c']. Undefined for a string that is not a pointer (or the whole document). */
export function pointerSegments(pointer: string): string[] | undefined {
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function minimise(payload: unknown, rules: readonly FieldRule[]): unknown {
  if (rules.length === 0) return payload;
  const keeps = rules.filter((rule) => rule.acao === 'manter');
  let result: unknown =
    keeps.length === 0 ? structuredClone(payload) : kept(payload, [...ENVELOPE_POINTERS, ...keeps.map((rule) => rule.ponteiro)]);
  for (const rule of rules.filter((candidate) => candidate.acao === 'remover')) result = removed(result, rule.ponteiro);
  for (const rule of rules.filter((candidate) => candidate.acao === 'mascarar'))
    masked(result, rule.ponteiro, rule.visiveis ?? DEFAULT_MASK_VISIBLE);
  return result;
}

/** The concrete paths a pointer reaches in `value` (wildcards expanded), each an existing value. */
function reached(value: unknown, segments: readonly string[], at: string[] = []): string[][] {
  if (segments.length === 0) return [at];
  const [segment, ...rest] = segments as [string, ...string[]];
  const children = childrenOf(value);
  if (segment === WILDCARD) return children.flatMap(([key, child]) => reached(child, rest, [...at, key]));
  const found = children.find(([key]) => key === segment);
  return found ? reached(found[1], rest, [...at, segment]) : [];
}

function childrenOf(value: unknown): [string, unknown][] {
  if (Array.isArray(value)) return value.map((element, index) => [String(index), element]);
  return isPlainObject(value) ? Object.entries(value) : [];
}

const keyOf = (path: readonly string[]) => path.join('\u0000');

/** Only what the pointers reach, with the objects and lists on the way to it. */
function kept(payload: unknown, pointers: readonly string[]): unknown {
  const paths = pointers.flatMap((pointer) => reached(payload, pointerSegments(pointer) ?? []));
  const keep = new Set(paths.map(keyOf));
  const onTheWay = new Set(paths.flatMap((path) => path.map((_, length) => keyOf(path.slice(0, length)))));
  const prune = (value: unknown, path: string[]): unknown => {
    const key = keyOf(path);
    if (keep.has(key)) return structuredClone(value);
    if (!onTheWay.has(key)) return undefined;
    if (Array.isArray(value))
      return value.map((element, index) => prune(element, [...path, String(index)])).filter((element) => element !== undefined);
    if (!isPlainObject(value)) return undefined;
    const entries = Object.entries(value).map(([name, child]) => [name, prune(child, [...path, name])] as const);
    return Object.fromEntries(entries.filter(([, child]) => child !== undefined));
  };
  return prune(payload, []) ?? {};
}

function removed(payload: unknown, pointer: string): unknown {
  // Last first, so removing a list's element does not shift the ones still to remove.
  const paths = reached(payload, pointerSegments(pointer) ?? []).reverse();
  for (const path of paths) {
    const parent = valueAt(payload, path.slice(0, -1));
    const last = path[path.length - 1]!;
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else if (isPlainObject(parent)) delete parent[last];
  }
  return payload;
}

function masked(payload: unknown, pointer: string, visible: number): void {
  for (const path of reached(payload, pointerSegments(pointer) ?? [])) {
    const parent = valueAt(payload, path.slice(0, -1)) as Record<string, unknown> | unknown[];
    const last = path[path.length - 1]!;
    const key = Array.isArray(parent) ? Number(last) : last;
    (parent as Record<string | number, unknown>)[key] = maskValue((parent as Record<string | number, unknown>)[key], visible);
  }
}

function maskValue(value: unknown, visible: number): unknown {
  if (value === null) return null;
  if (Array.isArray(value)) return value.map((element) => maskValue(element, visible));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, maskValue(child, visible)]));
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  // maskIdentifier keeps `visible` characters; none kept is every character hidden (at most 8 dots, as it does).
  return visible === 0 ? '•'.repeat(Math.min(text.length, 8)) : maskIdentifier(text, visible);
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const segment of path) current = childrenOf(current).find(([key]) => key === segment)?.[1];
  return current;
}
