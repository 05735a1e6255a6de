import { z } from 'zod';

/**
 * A claim's name, or a dotted path to a nested one (`realm_access.roles`), as settings name them
 * (OIDC_ROLES_CLAIM, PLATFORM_*_CLAIM). Reading the value at such a path is lib/auth/claim-path.ts.
 */
export const claimPathSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_:-]*(\.[A-Za-z_][A-Za-z0-9_:-]*)*$/, 'must be a claim name, or a dotted path to a nested claim');
