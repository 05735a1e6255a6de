import { z } from 'zod';

const uuid = z.guid();

/**
 * A path parameter that names a row by its UUID (a webhook configuration, a staff user), lowercase
 * as ids are stored. The operation declares it (lib/api/operations.ts) and the API wrapper applies
 * it: anything else is a 400 naming the parameter, with no pointer (it is not in the body).
 */
export const uuidPathParam = (description: string) =>
  z
    .string()
    .refine((value) => uuid.safeParse(value).success, { params: { key: 'uuid' } })
    .transform((value) => value.toLowerCase())
    .meta({ description, format: 'uuid' });

/** A path parameter taken as it is, for a service to look up (an unknown one is a 404 there). */
export const textPathParam = (description: string, pattern?: string) =>
  z
    .string()
    .max(200)
    .meta({ description, ...(pattern ? { pattern } : {}) });
