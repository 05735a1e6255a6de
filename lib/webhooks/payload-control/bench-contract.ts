import { z } from 'zod';
import { payloadControlShape } from './contract';

/**
 * The test bench (issue 46 §5): an event type's sample message or a pasted one, run through a
 * configuration's payload control (or an unsaved one) by the engine's own code and sandbox. No
 * server imports: the console's bench reads the same shapes.
 */
export const MAX_BENCH_MESSAGE_BYTES = 64 * 1024;

export const payloadBenchSchema = z
  .strictObject({
    tipo: z.string().min(1).max(100).optional().meta({
      description:
        'An event type (`avaliacao-saude.aprovada`) or its flag: the catalogue’s sample message for it. Ignored when `mensagem` is sent.',
    }),
    mensagem: z
      .looseObject({ type: z.string().min(1).max(100), timestamp: z.string().max(40), data: z.record(z.string(), z.unknown()) })
      .refine((message) => JSON.stringify(message).length <= MAX_BENCH_MESSAGE_BYTES, {
        params: { key: 'eventDataTooLarge', max: MAX_BENCH_MESSAGE_BYTES },
      })
      .optional()
      .meta({
        description: `A message as a receiver would get it (\`{type, timestamp, data}\`), pasted; at most ${MAX_BENCH_MESSAGE_BYTES} bytes as JSON.`,
      }),
    ...payloadControlShape,
  })
  .meta({
    description:
      'What to try. `filtro`, `campos` and `transformacao` as in a PUT: absent, the configuration’s saved ones; null, none; a value, that one (not saved).',
  });
export type PayloadBench = z.infer<typeof payloadBenchSchema>;

export const TRANSFORM_VERDICTS = ['sem-transformacao', 'enviar', 'cancelar', 'falhou'] as const;

export const payloadBenchResultSchema = z.object({
  mensagem: z.unknown().meta({ description: 'The message tried: the sample or the one pasted.' }),
  filtro: z.object({ passa: z.boolean() }).meta({ description: 'Whether the filter lets the message through (true without a filter).' }),
  minimizado: z.unknown().meta({ description: 'The message after the field rules.' }),
  transformacao: z
    .object({
      resultado: z.enum(TRANSFORM_VERDICTS),
      payload: z.unknown().optional(),
      cabecalhos: z.record(z.string(), z.string()).optional(),
      motivo: z.string().optional(),
    })
    .meta({
      description: 'What the transformation did: no code, a body to send (and headers), a cancellation, or a failure and its reason.',
    }),
  corpo: z
    .string()
    .nullable()
    .meta({ description: 'The body that would be signed and sent; null when nothing would be (filtered, cancelled or failed).' }),
  campos: z.array(z.string()).meta({ description: 'The message’s pointers, for field rules.' }),
});
export type PayloadBenchResult = z.infer<typeof payloadBenchResultSchema>;
