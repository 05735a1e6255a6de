import { z } from 'zod';
import { ENVELOPE_POINTERS, FIELD_ACTIONS, pointerSegments, type FieldRule } from './fields';
import { filterFault } from './filter';
import {
  DEFAULT_MASK_VISIBLE,
  MAX_FIELD_RULES,
  MAX_FILTER_CHARS,
  MAX_FILTER_DEPTH,
  MAX_MASK_VISIBLE,
  MAX_POINTER_LENGTH,
  MAX_TRANSFORM_CHARS,
  TRANSFORM_MEMORY_LIMIT_BYTES,
  TRANSFORM_OUTPUT_LIMIT_BYTES,
  TRANSFORM_TIME_LIMIT_MS,
} from './limits';

/**
 * Payload control (issue 46), beyond the contract: a configuration's content filter, field
 * minimisation and transformation, as the PUT and POST take them and the GET answers them. No
 * server imports: the console's editor and bench validate with the same schemas.
 */

export const filterSchema = z
  .record(z.string(), z.unknown())
  .superRefine((filter, ctx) => {
    const fault = filterFault(filter);
    if (fault) ctx.addIssue({ code: 'custom', path: fault.path, params: { key: fault.key, ...fault.values }, input: filter });
  })
  .meta({
    description: `A JSON condition over the message a receiver gets (\`{type, timestamp, data}\`): each key not starting with \`$\` is a field (\`data\`, or a dotted path such as \`data.exame.codigo\`) holding the condition its value must meet; a plain value means equality. Operators: \`$eq\`, \`$neq\`, \`$in\`, \`$nin\`, \`$gt\`, \`$gte\`, \`$lt\`, \`$lte\` (numbers with numbers, strings with strings), \`$exist\` (true/false), \`$startsWith\`, \`$and\`, \`$or\` (lists of conditions), \`$not\` (a condition). Where a field holds a list, the condition holds when any element meets it. At most ${MAX_FILTER_CHARS} characters, ${MAX_FILTER_DEPTH} levels deep. An event it does not let through is not queued: its delivery is recorded as \`filtrada\`.`,
  });

const fieldRuleSchema = z
  .strictObject({
    ponteiro: z
      .string()
      .min(1)
      .max(MAX_POINTER_LENGTH)
      .refine((pointer) => pointerSegments(pointer) !== undefined, { params: { key: 'fieldPointer' } })
      .meta({
        description: 'A JSON Pointer (RFC 6901) into the message, e.g. `/data/paciente/cpf`; `*` stands for every element of a list.',
      }),
    acao: z
      .enum(FIELD_ACTIONS)
      .meta({ description: '`manter` (keep only such fields), `remover` or `mascarar` (keep the last characters).' }),
    visiveis: z
      .number()
      .int()
      .min(0)
      .max(MAX_MASK_VISIBLE)
      .optional()
      .meta({ description: `For \`mascarar\`: how many last characters stay visible (default ${DEFAULT_MASK_VISIBLE}).` }),
  })
  .superRefine((rule, ctx) => {
    if (rule.visiveis !== undefined && rule.acao !== 'mascarar')
      ctx.addIssue({ code: 'custom', path: ['visiveis'], params: { key: 'fieldVisibleOnlyMask' } });
    if (rule.acao !== 'manter' && (ENVELOPE_POINTERS as readonly string[]).includes(rule.ponteiro)) {
      ctx.addIssue({ code: 'custom', path: ['ponteiro'], params: { key: 'fieldEnvelope' } });
    }
  });

export const fieldRulesSchema = z
  .array(fieldRuleSchema)
  .max(MAX_FIELD_RULES)
  .superRefine((rules, ctx) => {
    const seen = new Set<string>();
    for (const [index, rule] of rules.entries()) {
      if (seen.has(rule.ponteiro)) ctx.addIssue({ code: 'custom', path: [index, 'ponteiro'], params: { key: 'fieldDuplicate' } });
      seen.add(rule.ponteiro);
    }
  })
  .meta({
    description: `Field minimisation, applied before signing: keep (\`manter\`: only the kept fields, and \`type\` and \`timestamp\`, stay), then remove, then mask. At most ${MAX_FIELD_RULES} rules, one per pointer. A pointer that reaches nothing in a message does nothing to it.`,
  });

export const transformSchema = z
  .string()
  .min(1)
  .max(MAX_TRANSFORM_CHARS)
  .meta({
    description: `JavaScript defining \`function handler(webhook)\`: it gets \`{type, payload, headers}\` (the minimised message and the custom headers) and returns \`{payload, headers?}\` (the body to send and extra headers) or \`null\` / \`{cancel: true}\` (nothing is sent; the delivery is recorded as \`filtrada\`). Runs in a QuickJS WebAssembly sandbox: no network, file system, timers, \`require\` or \`process\`; at most ${TRANSFORM_TIME_LIMIT_MS} ms a run, ${TRANSFORM_MEMORY_LIMIT_BYTES / (1024 * 1024)} MiB of memory, ${TRANSFORM_OUTPUT_LIMIT_BYTES / 1024} KiB of JSON out. A throw, a limit reached or an invalid result is a failed attempt (\`transformacao\`) whose reason the log shows. At most ${MAX_TRANSFORM_CHARS} characters.`,
  });

/** The PUT's and POST's fields: null removes each. */
export const payloadControlShape = {
  filtro: filterSchema.nullable().optional(),
  campos: fieldRulesSchema.nullable().optional(),
  transformacao: transformSchema.nullable().optional(),
};

/** As the GET answers them (none: `null`, `[]`, `null`). */
export const payloadControlViewShape = {
  filtro: z
    .record(z.string(), z.unknown())
    .nullable()
    .meta({ description: 'Beyond the contract: the content filter (null: every event goes).' }),
  campos: z
    .array(z.object({ ponteiro: z.string(), acao: z.enum(FIELD_ACTIONS), visiveis: z.number().int().optional() }))
    .meta({ description: 'Beyond the contract: field minimisation rules (empty: the whole message goes).' }),
  transformacao: z.string().nullable().meta({ description: 'Beyond the contract: the transformation’s code (null: none).' }),
};

/** A configuration's payload control, as stored and run. */
export type PayloadControl = { filter: Record<string, unknown> | null; fields: FieldRule[]; transform: string | null };
export const NO_PAYLOAD_CONTROL: PayloadControl = { filter: null, fields: [], transform: null };

export function payloadControlView(control: PayloadControl) {
  return { filtro: control.filter, campos: control.fields, transformacao: control.transform };
}
