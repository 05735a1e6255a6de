/**
 * Loads a contract schema for the browser, keeping zod out of every page's first load.
 *
 * zod must not probe for `new Function` (its JIT) in the browser: the console's CSP forbids eval,
 * and even the probe, which zod catches, is reported as a CSP violation. An object schema probes
 * when it is built, so the setting goes in first and the contract module (which builds its
 * schemas as it loads) is imported only after it. Server-side zod keeps its JIT.
 */
export async function loadClientSchema<S>(load: () => Promise<S>): Promise<S> {
  const { config } = await import('zod/v4/core');
  config({ jitless: true });
  return load();
}
