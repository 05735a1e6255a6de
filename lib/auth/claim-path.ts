/** The value at a claim path (lib/config/claim-path.ts), or undefined when any step is missing. */
export function claimAt(claims: object, path: string): unknown {
  let value: unknown = claims;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
