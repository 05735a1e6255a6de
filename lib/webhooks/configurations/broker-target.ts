import { kindOf } from './destinations/kinds';
import { asSpecialUrl, withScheme } from './destinations/target-url';

/**
 * Broker targets (issue 29), whatever their kind (each kind's descriptor, in
 * delivery/destinations/<kind>/, says its schemes and destination). Pure: the service, the URL
 * form and the console's editor read targets the same way. A broker's user and password are
 * never in the URL: they are the configuration's `credenciais`, stored encrypted.
 */

/** Whether a target URL names a broker (a kind reached with `credenciais`). */
export function isBrokerUrl(raw: string): boolean {
  return kindOf(raw)?.descriptor.broker === true;
}

/** The broker target as stored: its scheme lower-case, the host canonical (as for a receiver URL). */
export function normalizeBrokerUrl(raw: string): string {
  const found = kindOf(raw);
  const url = found && asSpecialUrl(raw, found.scheme);
  return found && url ? withScheme(url, found.scheme) : raw;
}
