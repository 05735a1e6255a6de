import { isBrokerUrl, normalizeBrokerUrl } from './broker-target';

/**
 * How a webhook URL is written down, apart from whether it is allowed (url-policy.ts): the
 * console's editor needs only this, not the policy's lists of private and metadata hosts.
 */

/**
 * The URL as stored and delivered to: the WHATWG serialization, with an internationalised host name
 * in its punycode (ASCII) form, so `https://аpple.com` (Cyrillic а) is kept, shown and called as
 * `https://xn--pple-43d.com/` and cannot pass for the Latin name. Call only on a URL that passed
 * checkWebhookUrl; anything else is returned as it was.
 */
export function normalizeWebhookUrl(raw: string): string {
  if (isBrokerUrl(raw)) return normalizeBrokerUrl(raw);
  try {
    return new URL(raw).href;
  } catch {
    return raw;
  }
}

/** The normalized form when it spells the host differently from what was typed (an IDN host), else undefined. */
export function asciiFormOfUnicodeHost(raw: string): string | undefined {
  if (/^[\u0000-\u007f]*$/.test(raw)) return undefined;
  try {
    const url = new URL(raw);
    return url.hostname.split('.').some((label) => label.startsWith('xn--')) ? url.href : undefined;
  } catch {
    return undefined;
  }
}
