import 'server-only';

/**
 * One-line JSON logs. Callers pass identifiers of things (ids, codes, statuses), never request
 * bodies, header values or patient identifiers; `redactError` keeps driver text out of the fields
 * that could echo bound values.
 */
type Fields = Record<string, string | number | boolean | null | undefined>;

function write(level: 'info' | 'warn' | 'error', event: string, fields: Fields): void {
  if (process.env.LOG_SILENT === 'true') return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), event, ...fields });
  (level === 'error' ? console.error : console.log)(line);
}

export const log = {
  info: (event: string, fields: Fields = {}) => write('info', event, fields),
  warn: (event: string, fields: Fields = {}) => write('warn', event, fields),
  error: (event: string, fields: Fields = {}) => write('error', event, fields),
};

/** Class, code and the first line of the message: enough to find the cause, never the bind values. */
export function redactError(error: unknown): Fields {
  if (!(error instanceof Error)) return { errorType: typeof error };
  const code = (error as { code?: unknown }).code;
  const firstLine = error.message.split('\n')[0] ?? '';
  return {
    errorType: error.name,
    errorCode: typeof code === 'string' || typeof code === 'number' ? code : undefined,
    // Digits runs of 5+ can be patient or card numbers echoed by a driver: mask them.
    errorMessage: firstLine.slice(0, 300).replace(/\d{5,}/g, '#####'),
  };
}
