import { z } from 'zod';

/**
 * In the browser zod must not probe for `new Function` (its JIT): the console's CSP forbids eval,
 * and even the probe, caught by zod, is reported as a CSP violation. Server-side zod keeps its JIT.
 * Imported for its effect by lib/i18n/client.tsx, which every page loads before any form.
 */
z.config({ jitless: true });
