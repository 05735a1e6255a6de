import { WILDCARD } from './fields';
import { isPlainObject } from './filter';

/**
 * The fields a message may carry, read from its JSON Schema (the event catalogue's, issue 46 §2):
 * one suggestion per property, as the JSON Pointer a field rule takes (`/data/paciente/cpf`, lists
 * by `*`) with the schema's description. Pure and without zod, so it is unit-tested on plain
 * schemas; catalogue-pointers.ts feeds it the catalogue's.
 */
export type FieldSuggestion = { ponteiro: string; descricao?: string };

type Schema = Record<string, unknown>;

/** Every property's pointer under `schema`, parents before children, each once. */
export function schemaPointers(schema: unknown): FieldSuggestion[] {
  const root = isPlainObject(schema) ? schema : {};
  const found = new Map<string, FieldSuggestion>();
  const visit = (node: unknown, prefix: string, depth: number) => {
    // A bound keeps a recursive $ref from walking forever; no catalogue schema comes near it.
    if (!isPlainObject(node) || depth > 12) return;
    const resolved = resolve(root, node);
    for (const branch of ['anyOf', 'oneOf', 'allOf'] as const) {
      const options = resolved[branch];
      if (Array.isArray(options)) for (const option of options) visit(option, prefix, depth + 1);
    }
    const properties = resolved.properties;
    if (isPlainObject(properties)) {
      for (const [name, child] of Object.entries(properties)) {
        const pointer = `${prefix}/${escapeSegment(name)}`;
        const description = isPlainObject(child) && typeof child.description === 'string' ? child.description : undefined;
        if (!found.has(pointer))
          found.set(pointer, description === undefined ? { ponteiro: pointer } : { ponteiro: pointer, descricao: description });
        visit(child, pointer, depth + 1);
      }
    }
    if (isPlainObject(resolved.items)) visit(resolved.items, `${prefix}/${WILDCARD}`, depth + 1);
  };
  visit(root, '', 0);
  return [...found.values()];
}

/** A local `$ref` (`#/$defs/x`) followed to its definition; anything else as it is. */
function resolve(root: Schema, node: Schema): Schema {
  if (typeof node.$ref !== 'string' || !node.$ref.startsWith('#/')) return node;
  let target: unknown = root;
  for (const segment of node.$ref.slice(2).split('/')) target = isPlainObject(target) ? target[unescapeSegment(segment)] : undefined;
  return isPlainObject(target) ? target : node;
}

const escapeSegment = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapeSegment = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * The filter's way of naming the field a pointer names: a dotted path (`data.exame.codigo`). A
 * filter matches any element of a list by itself, so `*` segments drop out; undefined when a
 * segment holds a dot, which a dotted path cannot name.
 */
export function filterPathOf(pointer: string): string | undefined {
  if (!pointer.startsWith('/')) return undefined;
  const segments = pointer
    .slice(1)
    .split('/')
    .map(unescapeSegment)
    .filter((segment) => segment !== WILDCARD);
  if (segments.length === 0 || segments.some((segment) => segment === '' || segment.includes('.'))) return undefined;
  return segments.join('.');
}

/** Suggestions merged in order, the first description of a pointer kept. */
export function mergeSuggestions(...lists: readonly (readonly FieldSuggestion[])[]): FieldSuggestion[] {
  const merged = new Map<string, FieldSuggestion>();
  for (const suggestion of lists.flat()) {
    const known = merged.get(suggestion.ponteiro);
    if (!known) merged.set(suggestion.ponteiro, suggestion);
    else if (known.descricao === undefined && suggestion.descricao !== undefined) merged.set(suggestion.ponteiro, suggestion);
  }
  return [...merged.values()];
}
