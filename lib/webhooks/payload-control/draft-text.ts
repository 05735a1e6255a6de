import type { FieldAction } from './fields';
import { isPlainObject } from './filter';

/**
 * The payload-control card edits its filter and field rules as JSON text; a picked suggestion is
 * written into that text here. Each answers the new text, or undefined when the text at hand is not
 * the JSON it should be (the card then says so and changes nothing). Empty text is none yet.
 */

/** The field rules with `pointer`'s rule set to `action` (replacing one already there: a pointer has one rule). */
export function withFieldRule(text: string, pointer: string, action: FieldAction): string | undefined {
  const rules = parsed(text, []);
  if (!Array.isArray(rules)) return undefined;
  const list: unknown[] = rules;
  const rule = { ponteiro: pointer, acao: action };
  const at = list.findIndex((existing) => isPlainObject(existing) && existing.ponteiro === pointer);
  const next = at === -1 ? [...list, rule] : list.map((existing, index) => (index === at ? rule : existing));
  return JSON.stringify(next, null, 2);
}

/**
 * The filter with a condition on `path` added (`{"$exist": true}`, the user then narrows it);
 * a condition already on that path is left as it is.
 */
export function withFilterField(text: string, path: string): string | undefined {
  const filter = parsed(text, {});
  if (!isPlainObject(filter)) return undefined;
  if (Object.hasOwn(filter, path)) return JSON.stringify(filter, null, 2);
  return JSON.stringify({ ...filter, [path]: { $exist: true } }, null, 2);
}

function parsed(text: string, empty: unknown): unknown {
  if (text.trim() === '') return empty;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
