/**
 * What a node-oracledb error means for a reservation. The distinction that matters is whether the
 * call may have reached the database: before that (no connection to be had) the request certainly
 * changed nothing and the caller may retry; after it, a lost connection or a call timeout leaves the
 * outcome unknown, and neither the app nor the caller should blindly retry.
 */
export type OracleFailure =
  /** The pool had no connection within queueTimeout (NJS-040) or its queue is full (NJS-076). */
  | 'busy'
  /** No connection could be made or the pool is closing: nothing was sent. */
  | 'unreachable'
  /** Lost after the call was sent: the procedure may or may not have committed. */
  | 'uncertain'
  /** The database answered with an error: the block did not complete. */
  | 'failed';

const BUSY = new Set(['NJS-040', 'NJS-076']);

/**
 * Errors during execute that mean the round trip was cut: call timeout (NJS-123, DPI-1067 in Thick
 * mode), connection closed or broken (NJS-500/501/521, DPI-1080, ORA-03113/03114/03135), the session
 * killed (ORA-00028) or the call cancelled (ORA-01013).
 */
const CUT_MID_CALL = new Set([
  'NJS-123',
  'NJS-500',
  'NJS-501',
  'NJS-521',
  'DPI-1067',
  'DPI-1080',
  'ORA-03113',
  'ORA-03114',
  'ORA-03135',
  'ORA-00028',
  'ORA-01013',
]);

/** `NJS-040`, `ORA-03113`, `DPI-1080`…: node-oracledb's code, or the prefix of its message. */
export function oracleErrorCode(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^(NJS|ORA|DPI)-\d+$/.test(code)) return code;
  return /^((?:NJS|ORA|DPI)-\d+)/.exec(error.message)?.[1];
}

/** A failure while getting a connection: nothing was sent. */
export function classifyAcquireFailure(error: unknown): 'busy' | 'unreachable' {
  const code = oracleErrorCode(error);
  return code && BUSY.has(code) ? 'busy' : 'unreachable';
}

/** A failure of the call itself. */
export function classifyCallFailure(error: unknown): 'uncertain' | 'failed' {
  const code = oracleErrorCode(error);
  return code && CUT_MID_CALL.has(code) ? 'uncertain' : 'failed';
}

/** Log fields for an Oracle error: its code only. ORA-20xxx texts raised by a procedure can quote patient data. */
export function oracleErrorFields(error: unknown): Record<string, string | undefined> {
  return { errorType: error instanceof Error ? error.name : typeof error, errorCode: oracleErrorCode(error) };
}
