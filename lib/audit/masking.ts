/**
 * Masks for values that must not be readable in the audit trail or logs: patient identifiers keep
 * their last characters (enough for staff to tell records apart), secrets keep nothing, and
 * reservation tokens keep just enough to be matched.
 */
export function maskIdentifier(value: string | number | null | undefined, visible = 3): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value);
  if (text.length <= visible) return '•'.repeat(text.length);
  return '•'.repeat(Math.min(text.length - visible, 8)) + text.slice(-visible);
}

export function maskSecret(value: string): string {
  return value.length === 0 ? '' : '••••••';
}

/** The characters a reservation token keeps, and the shortest token that keeps any: under it, they would give too much of it away. */
const TOKEN_VISIBLE = 4;
const TOKEN_MIN_LENGTH_SHOWN = 16;

/**
 * A reservation token (TOKEN_RESERVA_P, tokenReservaCanc) releases its slot, so it is a secret; its
 * last 4 characters stay, as a patient identifier's do, so that a release can be matched with its
 * reservation and one who holds a token can find it. The embedded scheduler's tokens are 32 hex
 * digits; a back-end's shorter token (under 16 characters) keeps nothing. Empty stays empty: no token.
 */
export function maskToken(value: string): string;
export function maskToken(value: string | null | undefined): string | null;
export function maskToken(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value.length < TOKEN_MIN_LENGTH_SHOWN) return maskSecret(value);
  return maskIdentifier(value, TOKEN_VISIBLE)!;
}
