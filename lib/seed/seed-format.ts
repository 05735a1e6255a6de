import { z } from 'zod';
import { WEBHOOK_EVENT_FLAGS, type WebhookEventFlag } from '@/lib/webhooks/events/types';
import { webhookHeaderSchema } from '@/lib/webhooks/configurations/contract';

import { STAFF_ROLES } from '@/lib/config/staff-roles';
import { DEFAULT_SCOPES, KNOWN_SCOPES } from '@/lib/auth/scopes';

/** The seed file format (SEED_FILE); every key optional. */

const eventFlagsDefaultingToFalse = Object.fromEntries(WEBHOOK_EVENT_FLAGS.map((flag) => [flag, z.boolean().default(false)])) as Record<
  WebhookEventFlag,
  z.ZodDefault<z.ZodBoolean>
>;

/** Identifiers are stored lowercase: paths, tokens and comparisons all use the lowercase form. */
const uuid = z.guid().transform((value) => value.toLowerCase());

export const seedSchema = z.strictObject({
  staff: z
    .array(
      z.strictObject({
        email: z.email(),
        name: z.string().min(1),
        password: z.string().min(8),
        roles: z.array(z.enum(STAFF_ROLES)).min(1),
      }),
    )
    .default([]),
  apiClients: z
    .array(
      z.strictObject({
        clientId: z.string().min(1).max(100),
        clientSecret: z.string().min(8),
        name: z.string().min(1),
        usuarioId: uuid,
        sistemaOrigem: z.number().int(),
        scopes: z
          .array(z.enum(KNOWN_SCOPES as [string, ...string[]]))
          .min(1)
          .default([...DEFAULT_SCOPES]),
      }),
    )
    .default([]),
  webhookConfigs: z
    .array(
      z.strictObject({
        id: uuid,
        usuarioId: uuid,
        sistemaOrigem: z.number().int(),
        clientId: z.string().nullable().default(null),
        url: z.string().min(1),
        headers: z.array(webhookHeaderSchema).default([]),
        ...eventFlagsDefaultingToFalse,
      }),
    )
    .default([]),
  procedures: z
    .array(
      z.strictObject({
        nrSeqProcInterno: z.number().int().positive(),
        description: z.string().min(1),
        defaultMinutes: z.number().int().positive(),
        requiresSide: z.boolean().default(false),
      }),
    )
    .default([]),
  slots: z
    .array(
      z.strictObject({
        nrSeqAgenda: z.number().int().positive(),
        cdAgenda: z.number().int().positive(),
        start: z.iso.datetime({ offset: true }),
        minutes: z.number().int().positive(),
      }),
    )
    .default([]),
});

export type SeedData = z.infer<typeof seedSchema>;
export type SeedInput = z.input<typeof seedSchema>;
