import { z } from 'zod';

/** RFC 9457 problem details as every API route answers them (see problem.ts); for the OpenAPI document. */
const fieldErrorSchema = z.object({
  field: z.string().meta({ description: 'Dotted path of the field, e.g. headers.0.chave; empty for the body as a whole.' }),
  pointer: z.string().meta({ description: 'RFC 6901 JSON Pointer into the request body.' }),
  code: z.string().meta({ description: 'zod issue code or the rule key, e.g. too_big, urlPrivateTarget, headerNameReserved.' }),
  message: z.string().meta({ description: 'In pt-BR, or English with Accept-Language: en.' }),
});

export const problemSchema = z.object({
  type: z.string().meta({ description: 'urn:integration-console:problem:<slug>' }),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  errors: z.array(fieldErrorSchema).optional(),
  limite: z
    .number()
    .int()
    .optional()
    .meta({ description: 'A quota or rate limit’s refusal (409, 429): the limit that was reached, as the server is configured.' }),
  janelaSegundos: z
    .number()
    .optional()
    .meta({ description: 'A rate limit’s refusal (429): the sliding window, in seconds, that `limite` counts over.' }),
});

export type ProblemBody = z.infer<typeof problemSchema>;
