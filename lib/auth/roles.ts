/** Staff roles: `admin` may do everything, the others one area each. No server imports: the console's client components read it too. */
export const STAFF_ROLES = ['admin', 'webhooks', 'scheduling'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
