/**
 * Control characters (C0, DEL, C1: NUL, tab, line breaks, escapes…) have no place in an identifier,
 * a code or a search term; NUL in particular is refused by PostgreSQL as a 500. Every free-text
 * input is checked with this, and refused with 400 naming the field (code `controlCharacters`).
 */
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/;

export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTERS.test(value);
}

/** The zod refinement options that name the rule, for `.refine((v) => !hasControlCharacters(v), noControlCharacters)`. */
export const noControlCharacters = { params: { key: 'controlCharacters' } } as const;
