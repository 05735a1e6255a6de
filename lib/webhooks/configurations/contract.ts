import { z } from 'zod';
import { DISABLED_REASONS, MAX_DELIVERIES_PER_SECOND, type DisabledReason } from './fields';
import { WEBHOOK_EVENT_FLAGS, type WebhookEventFlag } from '../events/types';
import {
  checkHeaderName,
  checkHeaderValue,
  duplicateHeaderIndexes,
  headersWireLength,
  MAX_HEADER_NAME_LENGTH,
  MAX_HEADER_VALUE_BYTES,
  MAX_HEADERS_TOTAL_BYTES,
  MAX_WEBHOOK_HEADERS,
} from './header-policy';
import { BROKER_KINDS, BROKER_SCHEMES_TEXT, KINDS } from './destinations/kinds';
import { payloadControlShape, payloadControlViewShape } from '../payload-control/contract';
import { normalizeWebhookUrl } from './url-form';
import { checkWebhookUrl, MAX_WEBHOOK_URL_LENGTH, STRICT_URL_POLICY, type UrlPolicy } from './url-policy';

/**
 * The webhook configuration contract (service-interface.md §2.1, §4.1). No server imports: the
 * console's editor validates with the same schema as the PUT route.
 */

export { MAX_HEADER_VALUE_BYTES, MAX_WEBHOOK_HEADERS, MAX_WEBHOOK_URL_LENGTH };
export type { UrlPolicy };

/** The limit a size refusal's message names (its `{max}`), by issue key. */
const LIMIT_OF: Partial<Record<string, { max: number }>> = {
  urlTooLong: { max: MAX_WEBHOOK_URL_LENGTH },
  headerValueTooLong: { max: MAX_HEADER_VALUE_BYTES },
};

/**
 * Adds the policy's issue key, if any, as a custom issue the message table translates. A value
 * outside the length bounds already has its one error (too_small / too_big), so it gets no second.
 */
function policyCheck(check: (value: string) => string | undefined, bounds: { min: number; max: number }) {
  return (value: string, ctx: z.RefinementCtx<string>) => {
    if (value.length < bounds.min || value.length > bounds.max) return;
    const key = check(value);
    if (key) ctx.addIssue({ code: 'custom', params: { key, ...LIMIT_OF[key] }, input: value });
  };
}

export const webhookHeaderSchema = z.strictObject({
  chave: z
    .string()
    .min(1)
    .max(MAX_HEADER_NAME_LENGTH)
    .superRefine(policyCheck(checkHeaderName, { min: 1, max: MAX_HEADER_NAME_LENGTH }))
    .meta({
      description:
        'RFC 9110 token; not a hop-by-hop or framing header (Host, Content-Length, Content-Type, Transfer-Encoding, Connection, Upgrade, TE, Trailer, Expect, Keep-Alive, Proxy-*).',
    }),
  valor: z
    .string()
    .max(MAX_HEADER_VALUE_BYTES)
    .superRefine(policyCheck(checkHeaderValue, { min: 0, max: MAX_HEADER_VALUE_BYTES }))
    .meta({
      description: `At most ${MAX_HEADER_VALUE_BYTES} UTF-8 bytes; no CR, LF, NUL or other control characters; no surrounding spaces.`,
    }),
});

export const webhookHeadersSchema = z
  .array(webhookHeaderSchema)
  .max(MAX_WEBHOOK_HEADERS)
  .superRefine((headers, ctx) => {
    for (const index of duplicateHeaderIndexes(headers.map((header) => header.chave))) {
      ctx.addIssue({ code: 'custom', path: [index, 'chave'], params: { key: 'headerDuplicate' }, input: headers[index]?.chave });
    }
    if (headersWireLength(headers) > MAX_HEADERS_TOTAL_BYTES) {
      ctx.addIssue({ code: 'custom', path: [], params: { key: 'headersTooLarge', max: MAX_HEADERS_TOTAL_BYTES }, input: headers });
    }
  })
  .meta({
    description: `At most ${MAX_WEBHOOK_HEADERS} headers, names unique ignoring case, ${MAX_HEADERS_TOTAL_BYTES} bytes in all. When sent, replaces the whole list.`,
  });

export type WebhookHeader = z.infer<typeof webhookHeaderSchema>;

const eventFlagShape = Object.fromEntries(WEBHOOK_EVENT_FLAGS.map((flag) => [flag, z.boolean().optional()])) as Record<
  WebhookEventFlag,
  z.ZodOptional<z.ZodBoolean>
>;

/** Delivery controls (issue 31), beyond the contract: optional in a PUT or POST, answered by the GET. */
const deliveryControlsShape = {
  limiteEntregasPorSegundo: z
    .number()
    .int()
    .min(1)
    .max(MAX_DELIVERIES_PER_SECOND)
    .nullable()
    .optional()
    .meta({
      description: `Beyond the contract: at most this many attempts a second to this configuration, across every instance (1–${MAX_DELIVERIES_PER_SECOND}); null removes the limit. Deliveries waiting for it keep their order and say \`aguardando: limite-de-taxa\`.`,
    }),
  entregaOrdenada: z.boolean().optional().meta({
    description:
      'Beyond the contract: one attempt at a time, in publication order; a delivery waits (`aguardando: entrega-anterior`) until the one before it is delivered or has exhausted its retries. Costs throughput: off by default.',
  }),
};

/** The partner's technical contact (issue 31 §3), beyond the contract. */
const contactShape = {
  emailContato: z.email().max(254).nullable().optional().meta({
    description:
      'Beyond the contract: the partner’s technical contact, e-mailed (pt-BR, then English) when deliveries are switched off automatically (a 410, or failing too long) and when they are switched back on, once its owner confirmed it from the link of the one e-mail a new address gets (`emailContatoConfirmado`); null removes it.',
  }),
};

/**
 * A broker target's login (issue 29), beyond the contract: write-only. Stored encrypted; answers
 * show only the user, masked.
 */
export const MAX_BROKER_USER_LENGTH = 255;
export const MAX_BROKER_PASSWORD_LENGTH = 1024;
const credentialsShape = {
  credenciais: z
    .strictObject({
      usuario: z.string().min(1).max(MAX_BROKER_USER_LENGTH),
      senha: z.string().min(1).max(MAX_BROKER_PASSWORD_LENGTH),
    })
    .nullable()
    .optional()
    .meta({
      description: `Beyond the contract: the user and password a broker target (${BROKER_SCHEMES_TEXT}) is reached with; stored encrypted, never answered (answers show the user masked); null removes them. Refused for an https receiver: use a custom header there. Without them ${BROKER_KINDS.map((kind) => kind.withoutCredentials).join(' and ')}.`,
    }),
};

/** The schemes without TLS (development only), in the contract's words. */
const PLAIN_SCHEMES = KINDS.flatMap((kind) => kind.schemes.filter((scheme) => !scheme.tls).map((scheme) => `${scheme.scheme}//`)).join(
  ', ',
);

/** The receiver URL under a policy; `http` and private targets only where configuration allows. */
export function webhookUrlSchema(policy: UrlPolicy = STRICT_URL_POLICY) {
  return z
    .string()
    .min(1)
    .max(MAX_WEBHOOK_URL_LENGTH)
    .superRefine(policyCheck((url) => checkWebhookUrl(url, policy), { min: 1, max: MAX_WEBHOOK_URL_LENGTH }))
    .meta({
      format: 'uri',
      description: `Where notifications go, by kind: ${KINDS.map((kind) => kind.urlDescription).join('; ')}. Plain ${PLAIN_SCHEMES} only where the server allows them (development). At most ${MAX_WEBHOOK_URL_LENGTH} characters, no credentials in the URL (a broker's go in \`credenciais\`), no invisible (zero-width, bidi) characters, not a loopback, private, link-local, CGNAT or cloud-metadata target. Stored normalised (WHATWG form, host names in punycode).`,
    })
    .transform(normalizeWebhookUrl);
}

/**
 * The PUT body under a URL policy: the route's and the console editor's, both under the server's
 * configured policy (lib/http/body-settings.ts). `webhookUpdateSchema` is the strict default, what
 * production enforces and the OpenAPI document describes.
 */
export function webhookUpdateSchemaFor(policy: UrlPolicy) {
  return z.strictObject({
    url: webhookUrlSchema(policy).optional(),
    headers: webhookHeadersSchema.optional(),
    ...eventFlagShape,
    ativo: z
      .boolean()
      .optional()
      .meta({ description: 'Beyond the contract: false stops deliveries (events are kept as skipped); true resumes them.' }),
    ...deliveryControlsShape,
    ...contactShape,
    ...credentialsShape,
    ...payloadControlShape,
  });
}

export const webhookUpdateSchema = webhookUpdateSchemaFor(STRICT_URL_POLICY);

/**
 * The POST body (issue 11 §3): the PUT's rules with `url` required, plus the tenant. An API client
 * creates for its own tenant (usuarioId/sistemaOrigem may be omitted, or must be its own); staff
 * name the tenant. Omitted flags are false, omitted headers none.
 */
export function webhookCreateSchemaFor(policy: UrlPolicy) {
  const update = webhookUpdateSchemaFor(policy);
  return update.extend({
    url: webhookUrlSchema(policy),
    usuarioId: z
      .guid()
      .transform((value) => value.toLowerCase())
      .optional()
      .meta({ description: 'The tenant; required for staff, your own (or omitted) for an API client.' }),
    sistemaOrigem: z.number().int().optional().meta({ description: 'Required for staff; your own (or omitted) for an API client.' }),
    clientId: z.string().min(1).max(100).nullable().optional().meta({ description: 'For staff: the API client it belongs to, if any.' }),
  });
}

export const webhookCreateSchema = webhookCreateSchemaFor(STRICT_URL_POLICY);
export type WebhookCreate = z.infer<typeof webhookCreateSchema>;

export type WebhookUpdate = z.infer<typeof webhookUpdateSchema>;

/** The configuration object of §2.1, exactly the fields the contract lists (the API's answer). */
export const webhookConfigurationSchema = z.object({
  id: z.guid(),
  usuarioId: z.guid(),
  sistemaOrigem: z.number().int(),
  url: z.string(),
  clientId: z.string().nullable(),
  headers: z.array(z.object({ chave: z.string(), valor: z.string() })),
  ...(Object.fromEntries(WEBHOOK_EVENT_FLAGS.map((flag) => [flag, z.boolean()])) as Record<WebhookEventFlag, z.ZodBoolean>),
});

export type WebhookConfiguration = z.infer<typeof webhookConfigurationSchema>;

/** An open circuit (deliveries wait), or one whose wait is over and lets a probe attempt through. */
export const CIRCUIT_STATES = ['aberto', 'teste'] as const;

export { DISABLED_REASONS, type DisabledReason };

/**
 * A configuration as the API answers it: the contract's object plus `ativo` (whether deliveries go
 * out). The GET adds why and since when deliveries stopped; the PUT answers only the object and `ativo`.
 */
export const webhookViewSchema = webhookConfigurationSchema.extend({
  ativo: z.boolean().meta({ description: 'Beyond the contract: whether events are delivered to this configuration.' }),
  limiteEntregasPorSegundo: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'Beyond the contract: the rate limit, attempts a second (null: none).' }),
  entregaOrdenada: z.boolean().meta({ description: 'Beyond the contract: whether deliveries go one at a time, in publication order.' }),
  emailContato: z
    .string()
    .nullable()
    .meta({ description: 'Beyond the contract: the technical contact told when deliveries are switched off automatically and back on.' }),
  emailContatoConfirmado: z.boolean().meta({
    description: 'Beyond the contract: whether the contact’s owner confirmed it from the e-mailed link; until then it is told nothing.',
  }),
  credenciais: z
    .object({ usuario: z.string().meta({ description: 'The user, masked: its last 2 characters.' }) })
    .nullable()
    .meta({ description: 'Beyond the contract: whether a broker target has a login (the password is never answered).' }),
  recuperacaoSugerida: z
    .object({
      ignoradas: z.number().int().meta({ description: 'Deliveries skipped while deliveries were off, kept for a recovery.' }),
      desde: z
        .string()
        .meta({ description: 'The `desde` to give the recovery operation (POST …/recuperacao): the oldest skipped delivery.' }),
    })
    .optional()
    .meta({
      description:
        'Only in the answer of a PUT with `ativo: true`, when deliveries were skipped while off: what a recovery would send again. The receiver is not confirmed until a delivery to it succeeds.',
    }),
  ...payloadControlViewShape,
});
export type WebhookView = z.infer<typeof webhookViewSchema>;

export const webhookDetailSchema = webhookViewSchema.extend({
  desativacao: z
    .object({ motivo: z.enum(DISABLED_REASONS), em: z.string() })
    .nullable()
    .meta({ description: 'Why and when deliveries stopped, while `ativo` is false.' }),
  circuito: z
    .object({
      estado: z.enum(CIRCUIT_STATES),
      falhasSeguidas: z.number().int(),
      desde: z.string(),
      proximaTentativa: z.string(),
    })
    .nullable()
    .meta({
      description:
        'Beyond the contract: while the receiver looks down (consecutive timeouts, refused connections or 5xx), its deliveries wait, still `pendente`, taking no delivery capacity; at `proximaTentativa` one attempt probes the receiver (`estado` `teste`), and any answer but an outage resumes deliveries. Null while deliveries flow.',
    }),
});
export type WebhookDetail = z.infer<typeof webhookDetailSchema>;

// Any 8-4-4-4-12 hex identifier: ids minted by other systems need not carry an RFC 9562 version.
export const webhookIdSchema = z.guid();

/** The confirmation page's body (issue 43): the token of the link e-mailed to a new technical contact. */
export const contactConfirmationSchema = z.strictObject({ token: z.string().min(20).max(200) });
