import { MAX_FILTER_CHARS, MAX_FILTER_DEPTH } from './limits';

/**
 * A configuration's content filter (issue 46 §1): a JSON condition over the payload a receiver
 * would get (the whole message, `{type, timestamp, data}`), in the style Hookdeck Outpost and Convoy
 * use. A condition is an object: each key not starting with `$` is a field (`"data"`, or a dotted
 * path, `"data.exame.codigo"`) whose value is the condition that field must meet; each `$` key is an
 * operator on the value at hand. A plain value (not an object) means equality. Where a field holds a
 * list, the condition holds when any element meets it.
 *
 * No server imports: the console's editor and bench validate and evaluate with this same code.
 */

export type FilterCondition = unknown;

export const COMPARISON_OPERATORS = ['$eq', '$neq', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$exist', '$startsWith'] as const;
export const LOGICAL_OPERATORS = ['$and', '$or', '$not'] as const;
export const FILTER_OPERATORS = [...COMPARISON_OPERATORS, ...LOGICAL_OPERATORS] as const;

type Comparison = (typeof COMPARISON_OPERATORS)[number];

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `payload` meets `filter`. A filter that is absent (null) lets everything through. */
export function matchesFilter(filter: FilterCondition, payload: unknown): boolean {
  return filter === null || filter === undefined ? true : meets(filter, payload);
}

function meets(condition: FilterCondition, value: unknown): boolean {
  if (!isPlainObject(condition)) return equalsAny(value, condition);
  const fields = Object.keys(condition).filter((key) => !key.startsWith('$'));
  // A list meets a condition on its elements' fields when one element meets all of them together.
  if (Array.isArray(value) && fields.length > 0) return value.some((element) => meets(condition, element));
  return Object.entries(condition).every(([key, operand]) => {
    if (key === '$and') return (operand as FilterCondition[]).every((part) => meets(part, value));
    if (key === '$or') return (operand as FilterCondition[]).some((part) => meets(part, value));
    if (key === '$not') return !meets(operand, value);
    if (key.startsWith('$')) return compare(key as Comparison, operand, value);
    return meets(nestedCondition(key, operand), fieldOf(value, firstSegment(key)));
  });
}

/** `"a.b.c": x` reads as `"a": {"b.c": x}`: the first segment now, the rest one level down. */
function firstSegment(key: string): string {
  const dot = key.indexOf('.');
  return dot === -1 ? key : key.slice(0, dot);
}

function nestedCondition(key: string, operand: FilterCondition): FilterCondition {
  const dot = key.indexOf('.');
  return dot === -1 ? operand : { [key.slice(dot + 1)]: operand };
}

function fieldOf(value: unknown, name: string): unknown {
  return isPlainObject(value) && Object.hasOwn(value, name) ? value[name] : undefined;
}

function compare(operator: Comparison, operand: unknown, value: unknown): boolean {
  switch (operator) {
    case '$exist':
      return (value !== undefined) === operand;
    case '$eq':
      return equalsAny(value, operand);
    case '$neq':
      return !equalsAny(value, operand);
    case '$in':
      return (operand as unknown[]).some((candidate) => equalsAny(value, candidate));
    case '$nin':
      return !(operand as unknown[]).some((candidate) => equalsAny(value, candidate));
    case '$startsWith':
      return anyOf(value, (element) => typeof element === 'string' && element.startsWith(operand as string));
    default:
      return anyOf(value, (element) => ordered(operator, element, operand));
  }
}

/** The value itself, or where it is a list, any of its elements. */
function anyOf(value: unknown, test: (element: unknown) => boolean): boolean {
  return test(value) || (Array.isArray(value) && value.some(test));
}

function equalsAny(value: unknown, operand: unknown): boolean {
  return anyOf(value, (element) => sameJson(element, operand));
}

/** Numbers with numbers, strings with strings (ISO dates compare as strings); anything else never. */
function ordered(operator: Comparison, value: unknown, operand: unknown): boolean {
  if (typeof value === 'number' && typeof operand === 'number') return inOrder(operator, value, operand);
  if (typeof value === 'string' && typeof operand === 'string') return inOrder(operator, value, operand);
  return false;
}

function inOrder<T extends number | string>(operator: Comparison, a: T, b: T): boolean {
  if (operator === '$gt') return a > b;
  if (operator === '$gte') return a >= b;
  if (operator === '$lt') return a < b;
  return a <= b;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((element, index) => sameJson(element, b[index]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
  }
  return false;
}

/**
 * The first fault of a filter, if any: where it is (a path into the filter) and the message code
 * (validation.code.*) with its values, for the editor and the 400 to point at.
 */
export type FilterFault = { path: (string | number)[]; key: string; values?: Record<string, string | number> };

export function filterFault(filter: unknown): FilterFault | null {
  if (!isPlainObject(filter)) return { path: [], key: 'filterNotObject' };
  const size = JSON.stringify(filter).length;
  if (size > MAX_FILTER_CHARS) return { path: [], key: 'filterTooLarge', values: { max: MAX_FILTER_CHARS } };
  return conditionFault(filter, [], 1);
}

function conditionFault(condition: unknown, path: (string | number)[], depth: number): FilterFault | null {
  if (depth > MAX_FILTER_DEPTH) return { path, key: 'filterTooDeep', values: { max: MAX_FILTER_DEPTH } };
  if (!isPlainObject(condition)) return valueFault(condition, path, depth);
  for (const [key, operand] of Object.entries(condition)) {
    const at = [...path, key];
    const fault = key.startsWith('$') ? operatorFault(key, operand, at, depth) : fieldFault(key, operand, at, depth);
    if (fault) return fault;
  }
  return null;
}

/** A value compared as a whole (equality, a list of candidates): any JSON, but not deeper than a filter may be. */
function valueFault(value: unknown, path: (string | number)[], depth: number): FilterFault | null {
  if (typeof value !== 'object' || value === null) return null;
  if (depth > MAX_FILTER_DEPTH) return { path, key: 'filterTooDeep', values: { max: MAX_FILTER_DEPTH } };
  for (const [key, element] of Object.entries(value)) {
    const fault = valueFault(element, [...path, Array.isArray(value) ? Number(key) : key], depth + 1);
    if (fault) return fault;
  }
  return null;
}

function fieldFault(key: string, operand: unknown, path: (string | number)[], depth: number): FilterFault | null {
  if (key.length === 0 || key.split('.').some((segment) => segment.length === 0)) return { path, key: 'filterFieldName' };
  return conditionFault(operand, path, depth + 1);
}

function operatorFault(operator: string, operand: unknown, path: (string | number)[], depth: number): FilterFault | null {
  const expected = (what: string): FilterFault => ({ path, key: `filterExpects${what}`, values: { operator } });
  switch (operator) {
    case '$and':
    case '$or': {
      if (!Array.isArray(operand) || operand.length === 0) return expected('Conditions');
      for (const [index, part] of operand.entries()) {
        if (!isPlainObject(part)) return { path: [...path, index], key: 'filterExpectsCondition', values: { operator } };
        const fault = conditionFault(part, [...path, index], depth + 1);
        if (fault) return fault;
      }
      return null;
    }
    case '$not':
      return isPlainObject(operand) ? conditionFault(operand, path, depth + 1) : expected('Condition');
    case '$in':
    case '$nin':
      return Array.isArray(operand) && operand.length > 0 ? valueFault(operand, path, depth + 1) : expected('Values');
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return typeof operand === 'number' || typeof operand === 'string' ? null : expected('NumberOrString');
    case '$exist':
      return typeof operand === 'boolean' ? null : expected('Boolean');
    case '$startsWith':
      return typeof operand === 'string' ? null : expected('String');
    case '$eq':
    case '$neq':
      return valueFault(operand, path, depth + 1);
    default:
      return { path, key: 'filterUnknownOperator', values: { operator } };
  }
}
