import { z } from 'zod';

/** An on/off environment variable: true/false, 1/0 or yes/no. */
export const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');
