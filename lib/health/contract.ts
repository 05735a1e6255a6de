import { z } from 'zod';

/** What the health checks answer (GET /api/health, GET /api/health/ready), for load balancers and orchestrators. */
export const livenessSchema = z.strictObject({
  status: z.literal('ok'),
  tempoAtivoSegundos: z.number().int().min(0).meta({ description: 'Seconds since the process started.' }),
});

const checkSchema = z.strictObject({
  ok: z.boolean(),
  ms: z.number().min(0).meta({ description: 'How long the check took, in milliseconds.' }),
  erro: z
    .string()
    .optional()
    .meta({ description: 'Why it failed, as a code (a driver’s error code, `timeout`), never the driver’s text.' }),
});

export const readinessSchema = z.strictObject({
  status: z.enum(['ready', 'not-ready', 'stopping']).meta({ description: '`stopping` while the instance drains for a deploy.' }),
  verificacoes: z.strictObject({
    bancoDeDados: checkSchema.extend({ dialeto: z.string().optional().meta({ description: 'sqlite, postgres or oracle.' }) }),
    agendamento: checkSchema.extend({
      sistema: z.string().optional().meta({ description: 'The scheduling back-end: embedded or oracle.' }),
    }),
  }),
});
