import 'server-only';
import { checkHeaderName, checkHeaderValue } from '../../configurations/header-policy';
import { OWN_HEADERS } from '../message';
import { isPlainObject } from '../../payload-control/filter';
import { MAX_TRANSFORM_HEADERS } from '../../payload-control/limits';
import { runInSandbox } from '../../payload-control/sandbox';

/**
 * A partner's transformation (issue 46 §3): `function handler(webhook)` receives
 * `{ type, payload, headers }` (the event type, the payload a receiver would get after minimisation,
 * the configuration's custom headers as an object) and returns what to send instead:
 *
 * - `{ payload, headers? }`: `payload` (any JSON) is the body sent; `headers` (an object of strings)
 *   adds headers, under the custom headers' rules (no header the delivery sets itself);
 * - `null` or `{ cancel: true }`: nothing is sent, the delivery is recorded as `filtrada`.
 *
 * Anything else, a throw, or a limit reached is a failure with its reason, which the delivery log
 * shows as the attempt's error (`transformacao`).
 */
export type TransformInput = { type: string; payload: unknown; headers: Record<string, string> };

export type TransformResult =
  { outcome: 'sent'; payload: unknown; headers: Record<string, string> } | { outcome: 'cancelled' } | { outcome: 'failed'; reason: string };

export async function transform(owner: string, code: string, input: TransformInput): Promise<TransformResult> {
  const run = await runInSandbox(owner, code, JSON.stringify(input));
  if (!run.ok) return { outcome: 'failed', reason: run.reason };
  return resultOf(JSON.parse(run.output) as unknown);
}

const invalid = (why: string): TransformResult => ({ outcome: 'failed', reason: `resultado-invalido: ${why}` });

export function resultOf(result: unknown): TransformResult {
  if (result === null) return { outcome: 'cancelled' };
  if (!isPlainObject(result)) return invalid('return { payload, headers? }, null or { cancel: true }');
  if (result.cancel === true) return { outcome: 'cancelled' };
  if (!Object.hasOwn(result, 'payload') || result.payload === null) return invalid('the result has no payload');
  const headers = result.headers ?? {};
  if (!isPlainObject(headers)) return invalid('headers must be an object of strings');
  const entries = Object.entries(headers);
  if (entries.length > MAX_TRANSFORM_HEADERS) return invalid(`at most ${MAX_TRANSFORM_HEADERS} headers`);
  for (const [name, value] of entries) {
    if (typeof value !== 'string') return invalid(`header ${JSON.stringify(name)} must be a string`);
    if ((OWN_HEADERS as readonly string[]).includes(name.toLowerCase()))
      return invalid(`header ${JSON.stringify(name)} is set by the delivery`);
    const fault = checkHeaderName(name) ?? checkHeaderValue(value);
    if (fault) return invalid(`header ${JSON.stringify(name)}: ${fault}`);
  }
  return { outcome: 'sent', payload: result.payload, headers: headers as Record<string, string> };
}
