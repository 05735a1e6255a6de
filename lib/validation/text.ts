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

/**
 * Characters that show nothing: Unicode format characters (Cf: zero-width space/joiners, bidi
 * embeddings and overrides, soft hyphen, BOM, word joiner…) and the Hangul fillers that render as
 * blanks. In an identifier they make two different values look the same (`admin` and `ad\u200Bmin`),
 * and a bidi override shows text in another order than it is stored. Refused with 400 naming the
 * field (code `invisibleCharacters`) in identifiers and URLs.
 */
const INVISIBLE_CHARACTERS = /[\p{Cf}\u115F\u1160\u3164\uFFA0]/u;

export function hasInvisibleCharacters(value: string): boolean {
  return INVISIBLE_CHARACTERS.test(value);
}

/** The zod refinement options that name the rule, for `.refine((v) => !hasInvisibleCharacters(v), noInvisibleCharacters)`. */
export const noInvisibleCharacters = { params: { key: 'invisibleCharacters' } } as const;
