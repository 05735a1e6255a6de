import { z } from 'zod';

/** A claim's name, or a dotted path to a nested one (`realm_access.roles`), as settings name them. */
export const claimPathSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_:-]*(\.[A-Za-z_][A-Za-z0-9_:-]*)*$/, 'must be a claim name, or a dotted path to a nested claim');

/** The value at a claim path, or undefined when any step is missing. */
export function claimAt(claims: object, path: string): unknown {
  let value: unknown = claims;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
