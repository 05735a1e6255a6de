/**
 * The limits of a configuration's payload control (issue 46), declared once: the contract's
 * schemas, the sandbox, the docs and the console's hints all read them from here.
 */

/** A filter, as JSON: at most this many characters and this deep (objects and lists, counted together). */
export const MAX_FILTER_CHARS = 8_192;
export const MAX_FILTER_DEPTH = 12;

/** Field rules: at most this many, each pointer at most this long; a masked value keeps at most this many characters. */
export const MAX_FIELD_RULES = 100;
export const MAX_POINTER_LENGTH = 300;
export const MAX_MASK_VISIBLE = 8;
export const DEFAULT_MASK_VISIBLE = 3;

/** A transformation's source, at most this many characters. */
export const MAX_TRANSFORM_CHARS = 32_768;

/**
 * One run of a transformation: its time (compiling included, the first time), the memory its
 * runtime may allocate, the stack its calls may take, and the JSON it may give back.
 */
export const TRANSFORM_TIME_LIMIT_MS = 100;
/** The WebAssembly memory a transformation's engine gets, all it may ever hold (the engine's own ~2 MiB included). */
export const TRANSFORM_MEMORY_LIMIT_BYTES = 48 * 1024 * 1024;
export const TRANSFORM_STACK_LIMIT_BYTES = 256 * 1024;
export const TRANSFORM_OUTPUT_LIMIT_BYTES = 256 * 1024;
/** Extra headers a transformation may add. */
export const MAX_TRANSFORM_HEADERS = 10;
