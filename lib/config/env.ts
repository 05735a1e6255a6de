import 'server-only';
import path from 'node:path';
import { z } from 'zod';
import { booleanFlag } from './boolean-flag';
import { DEFAULT_DATA_DIR } from './file-settings.mjs';
import { parseTrustedProxies, type TrustedProxies } from './trusted-proxies';
import { checkMailEnv, mailEnvShape } from '@/lib/config/mail';
import { checkOperationalEnv, operationalEnvShape } from '@/lib/webhooks/operational/config';
import { portalEnvShape } from './portal';
import { checkSsoEnv, ssoConfigFrom, ssoEnvShape, type SsoConfig } from './sso';
import { checkOracleEnv, oracleConfigFrom, oracleEnvShape, type OracleSchedulingConfig } from '@/lib/config/oracle';
import { checkPlatformTokenEnv, platformTokenConfigFrom, platformTokenEnvShape, type PlatformTokenConfig } from './platform-tokens';

/**
 * Every setting the server reads, validated once. Other modules import `env()` instead of touching
 * process.env, so a typo or a bad value fails at start with a message naming the variable.
 */
/** Delivery settings' defaults, also stated to partners in the OpenAPI document's webhooks (lib/openapi/webhooks.ts). */
export const WEBHOOK_DEFAULTS = { timeoutMs: 15_000, retrySchedule: '5,300,1800,7200,18000,36000,36000' };

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    /**
     * Folder of the embedded database file and the generated signing secret. The server commands
     * make relative values absolute before the app reads them (scripts/resolve-file-settings.mjs).
     */
    DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR),
    /** JSON seed for a new database. */
    SEED_FILE: z.string().min(1).optional(),
    /**
     * The built-in pt-BR demo (public staff passwords and API client secrets, README) for a new
     * embedded database, and its slots topped up on every start. Only when asked for: the README's
     * start command (scripts/start.sh) asks; `npm start` and the container image never seed it.
     */
    SEED_DEMO: booleanFlag.default(false),
    /** postgres://… or oracle://… to share app data between instances; embedded SQLite when unset. */
    DATABASE_URL: z
      .string()
      .regex(
        /^(postgres|postgresql|oracle):\/\/[^\s]+$/,
        'must be postgres://…, postgresql://… or oracle://user:password@host:port/service',
      )
      .optional(),
    /** Connections each instance keeps to DATABASE_URL. */
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
    /** Secret for API tokens and staff sessions; generated and kept in DATA_DIR when unset. */
    /**
     * The Bearer token Prometheus scrapes GET /metrics with (issue 20); unset, /metrics answers 404
     * (lib/health/scrape.ts).
     */
    METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must have at least 16 characters').optional(),
    AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must have at least 32 characters').optional(),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
    TOKEN_ISSUER: z.string().min(1).default('integration-console'),
    TOKEN_AUDIENCE: z.string().min(1).default('integration-api'),
    /** Largest request body any API route accepts. */
    MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(10_485_760).default(65_536),
    /**
     * Check every API answer against its operation's declared responses (lib/http/answer-check.ts):
     * a mismatch answers 500 and logs the operation and where. Unset: on unless NODE_ENV is
     * production; the e2e suite turns it on for the production build it runs.
     */
    API_CHECK_RESPONSES: booleanFlag.optional(),
    /** Webhook receivers may use plain http (local development only). */
    WEBHOOK_ALLOW_HTTP: booleanFlag.default(false),
    /** Webhook receivers may be loopback/private addresses (local development only). */
    WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFlag.default(false),
    /**
     * The console's public URL (next-auth reads it too). When it is https, responses carry HSTS and
     * the session cookie is Secure; browser writes from this origin pass the same-origin check.
     */
    NEXTAUTH_URL: z
      .url({ protocol: /^https?$/, error: 'must be the public http(s):// URL of the console' })
      .optional()
      .transform((value) => (value === undefined ? undefined : new URL(value).origin)),
    /**
     * Load balancers / reverse proxies (addresses or CIDR blocks, comma-separated) whose
     * X-Forwarded-For, X-Forwarded-Host and X-Forwarded-Proto are believed; none by default.
     */
    TRUSTED_PROXIES: z
      .string()
      .optional()
      .transform((value, ctx): TrustedProxies => {
        const parsed = parseTrustedProxies(value);
        if ('error' in parsed) {
          ctx.addIssue({ code: 'custom', message: parsed.error });
          return z.NEVER;
        }
        return parsed;
      }),
    /** Webhook deliveries (issue 10): an attempt succeeds on a 2xx within this many milliseconds. */
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(WEBHOOK_DEFAULTS.timeoutMs),
    /**
     * Seconds between a failed attempt and the next (Standard Webhooks' schedule); after the last
     * one the delivery has failed. Fractions allowed (tests use short ones).
     */
    WEBHOOK_RETRY_SCHEDULE: z
      .string()
      .default(WEBHOOK_DEFAULTS.retrySchedule)
      .transform((value, ctx) => {
        const steps = value.split(',').map((step) => Number(step.trim()));
        if (steps.length === 0 || steps.some((step) => !Number.isFinite(step) || step <= 0 || step > 604_800)) {
          ctx.addIssue({ code: 'custom', message: 'must be comma-separated positive seconds, e.g. 5,300,1800' });
          return z.NEVER;
        }
        return steps;
      }),
    /** Attempts each server process makes at once. */
    WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(512).default(16),
    /**
     * Attempts in flight to one configuration at once, across every instance (issue 18): a partner
     * whose receiver hangs holds at most this many worker slots, never all of them.
     */
    WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
    /**
     * Attempts in flight for one tenant (usuarioId: all its configurations) at once, across every
     * instance (issue 27): a partner with hundreds of receivers down holds at most this many worker
     * slots. Unset: half of WEBHOOK_CONCURRENCY (at least 1), so another tenant always finds room.
     */
    WEBHOOK_TENANT_CONCURRENCY: z.coerce.number().int().min(1).max(4096).optional(),
    /** Consecutive attempts that find a receiver down (timeout, refused, 5xx) before its circuit opens. */
    WEBHOOK_CIRCUIT_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
    /** How long an open circuit first waits before one probe attempt; doubled while the receiver stays down (at most WEBHOOK_CIRCUIT_PROBE_SECONDS). */
    WEBHOOK_CIRCUIT_OPEN_SECONDS: z.coerce.number().min(0.1).max(1800).default(30),
    /**
     * After the first open period, the longest between two probes of a receiver still down, whatever
     * the probing delivery's own retry schedule (issue 45): a receiver back is found within it.
     */
    WEBHOOK_CIRCUIT_PROBE_SECONDS: z.coerce.number().min(0.1).max(1800).default(5),
    /**
     * With ordered delivery, the longest one failing delivery holds the ones behind it, from its first
     * failed attempt; then it is given up (`falhou`, `entrega.esgotada`) and the rest move on.
     */
    WEBHOOK_ORDERED_HOLD_MINUTES: z.coerce.number().min(0.01).max(10_080).default(60),
    /** Webhook events, deliveries and attempts older than this are deleted. */
    WEBHOOK_RETENTION_DAYS: z.coerce.number().min(1).max(36_500).default(90),
    /** The audit trail's retention; unset keeps every entry (regulated data: the operator decides). */
    AUDIT_RETENTION_DAYS: z.coerce.number().min(1).max(36_500).optional(),
    /** A configuration whose attempts have all failed for this many hours is disabled. */
    WEBHOOK_DISABLE_AFTER_HOURS: z.coerce.number().min(0.0001).max(8760).default(120),
    /** Staff hear of a circuit that has stayed open this many minutes (issue 20 §4); fractions allowed. */
    WEBHOOK_ALERT_CIRCUIT_MINUTES: z.coerce.number().min(0).max(10_080).default(15),
    /** How often each instance looks for delivery incidents to tell staff about. */
    WEBHOOK_ALERT_CHECK_SECONDS: z.coerce.number().min(0.2).max(3600).default(30),
    /** After a rotation the previous secret keeps signing (a second signature) for this many hours. */
    WEBHOOK_SECRET_OVERLAP_HOURS: z.coerce.number().min(0).max(720).default(24),
    /** A pooled broker connection no attempt used for this long is closed (issue 43). */
    WEBHOOK_BROKER_IDLE_SECONDS: z.coerce.number().min(1).max(86_400).default(300),
    /**
     * Broker connections one tenant may have open at once, per instance and broker kind: past it
     * the tenant's longest idle one is closed, and with none idle the attempt fails as
     * `limite-conexoes` (retried on the schedule).
     */
    WEBHOOK_BROKER_CONNECTIONS: z.coerce.number().int().min(1).max(1000).default(20),
    /**
     * DNS servers (ip or ip:port, comma-separated) that deliveries resolve receivers' names with;
     * the system resolver when unset. Every answer is checked against the private-target policy.
     */
    WEBHOOK_DNS_SERVERS: z
      .string()
      .optional()
      .transform((value) =>
        value
          ? value
              .split(',')
              .map((server) => server.trim())
              .filter(Boolean)
          : undefined,
      ),
    /**
     * Tenant quotas (issue 27), each refused with problem+json naming the limit. Webhook
     * configurations one tenant (usuarioId) may have: past it a create answers 409.
     */
    MAX_WEBHOOKS_PER_TENANT: z.coerce.number().int().min(1).max(100_000).default(100),
    /** Test events one configuration may be sent in any 60 seconds; past it 429 with Retry-After. */
    MAX_TEST_EVENTS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(5),
    /** Events one producer may publish in any second; past it 429 with Retry-After. */
    MAX_EVENTS_PER_SECOND: z.coerce.number().int().min(1).max(1_000_000).default(200),
    /** After an API client's secret is rotated, the previous one keeps working this many hours. */
    CLIENT_SECRET_OVERLAP_HOURS: z.coerce.number().min(0).max(720).default(24),
    /** Which scheduling back-end answers reservations. */
    SCHEDULING_BACKEND: z.enum(['embedded', 'oracle']).default('embedded'),
    /** Embedded scheduler: nrMinDuracao at most this many times the exam's usual duration. */
    MAX_DURATION_FACTOR: z.coerce.number().int().min(1).max(48).default(4),
    /** Active reservations one API client (owner) may hold at once; past it a reserve answers 429. */
    MAX_ACTIVE_HOLDS_PER_CLIENT: z.coerce.number().int().min(1).max(1_000_000).default(200),
    /**
     * Embedded scheduler: minutes after which an unreleased reservation frees its slot; 0 never.
     * Fractions are allowed (specs use a few seconds).
     */
    RESERVATION_HOLD_MINUTES: z.coerce.number().min(0).max(525_600).default(30),
    /**
     * Waitlist (issue 48): minutes a partner has to accept a slot offered to its entry before it is
     * released and offered to the next in line. Fractions are allowed (specs use a few seconds).
     */
    WAITLIST_OFFER_MINUTES: z.coerce.number().min(0.05).max(10_080).default(30),
    /** Waitlist: entries one tenant may have waiting or offered at once; past it a create answers 429. */
    WAITLIST_MAX_ENTRIES_PER_TENANT: z.coerce.number().int().min(1).max(100_000).default(500),
    /** Waitlist: seconds between two looks for free slots matching waiting entries (a release looks at once). */
    WAITLIST_SCAN_SECONDS: z.coerce.number().min(0.5).max(3600).default(15),
    /** ORACLE_*: the Oracle scheduling procedure (lib/config/oracle.ts). */
    ...oracleEnvShape,
    /** SMTP_*: e-mailing one-time password links (lib/config/mail.ts). */
    ...mailEnvShape,
    /** OPERATIONAL_WEBHOOK_URL: the operator's receiver of operational events (lib/webhooks/operational/config.ts). */
    ...operationalEnvShape,
    /** PORTAL_*: the partner portal's links, sessions and framing origins (lib/config/portal.ts). */
    ...portalEnvShape,
    /** OIDC_*, PASSWORD_SIGN_IN: staff single sign-on (lib/config/sso.ts). */
    ...ssoEnvShape,
    /** AUTH_EMBEDDED_ISSUER, PLATFORM_*: which access tokens are accepted (lib/config/platform-tokens.ts). */
    ...platformTokenEnvShape,
  })
  .superRefine((value, ctx) => {
    checkSeedEnv(value, ctx);
    checkOracleEnv(value, ctx);
    checkPlatformTokenEnv(value, ctx);
    checkMailEnv(value, ctx);
    checkOperationalEnv(value, ctx);
    checkSsoEnv(value, ctx);
  });

/** The public demo credentials never reach a server database, and one seed is applied, not two. */
function checkSeedEnv(value: { SEED_DEMO: boolean; SEED_FILE?: string; DATABASE_URL?: string }, ctx: z.RefinementCtx): void {
  if (!value.SEED_DEMO) return;
  if (value.DATABASE_URL) {
    ctx.addIssue({ code: 'custom', path: ['SEED_DEMO'], message: 'is for the embedded default only: unset it with DATABASE_URL' });
  }
  if (value.SEED_FILE) ctx.addIssue({ code: 'custom', path: ['SEED_DEMO'], message: 'and SEED_FILE exclude each other: set one' });
}

export type AppEnv = Omit<z.infer<typeof envSchema>, 'WEBHOOK_TENANT_CONCURRENCY'> & {
  dataDir: string;
  /** WEBHOOK_TENANT_CONCURRENCY, or its default. */
  WEBHOOK_TENANT_CONCURRENCY: number;
  /** Present when SCHEDULING_BACKEND=oracle. */
  oracle?: OracleSchedulingConfig;
  /** Present when PLATFORM_JWKS_URL is set. */
  platformTokens?: PlatformTokenConfig;
  /** Present when OIDC_ISSUER is set. */
  sso?: SsoConfig;
};

/** Parsed once per process. On globalThis so that lib/testing/hooks.ts can forget it when a test changes process.env. */
const holder = globalThis as typeof globalThis & { __integrationConsoleEnv?: AppEnv };

export function env(): AppEnv {
  if (holder.__integrationConsoleEnv) return holder.__integrationConsoleEnv;
  const parsed = envSchema.safeParse(emptyToUndefined(process.env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const cached: AppEnv = {
    ...parsed.data,
    dataDir: path.resolve(parsed.data.DATA_DIR),
    WEBHOOK_TENANT_CONCURRENCY: parsed.data.WEBHOOK_TENANT_CONCURRENCY ?? Math.max(1, Math.floor(parsed.data.WEBHOOK_CONCURRENCY / 2)),
    oracle: parsed.data.SCHEDULING_BACKEND === 'oracle' ? oracleConfigFrom(parsed.data) : undefined,
    platformTokens: platformTokenConfigFrom(parsed.data),
    sso: ssoConfigFrom(parsed.data),
  };
  holder.__integrationConsoleEnv = cached;
  return cached;
}

/** `FOO=` in a shell or .env file means "not set", not "set to the empty string". */
function emptyToUndefined(source: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const result: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(source)) result[key] = value === '' ? undefined : value;
  return result;
}
