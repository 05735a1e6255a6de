/**
 * What an `Idempotency-Key` may look like, without server imports: the API document states it
 * (lib/api/operations.ts) and the server checks it (key.ts). 1 to 255 visible ASCII characters:
 * fits the key column (idem_key, migration 001) and any log line unchanged.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** One visible ASCII character, as a regular expression class. */
export const IDEMPOTENCY_KEY_CHARACTERS = '[\\x21-\\x7E]';
