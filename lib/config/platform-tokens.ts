import { z } from 'zod';
import { booleanFlag } from './boolean-flag';
import { claimPathSchema } from './claim-path';
import { isLoopbackHost } from './loopback';

/**
 * Settings for accepting the integration platform's own access tokens (JWTs signed with its keys,
 * published at a JWKS URL), merged into the app's environment schema in lib/config/env.ts.
 */
const PLATFORM_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

export const platformTokenEnvShape = {
  /** The embedded client-credentials issuer (POST /api/v1/auth/token) and its HS256 tokens. */
  AUTH_EMBEDDED_ISSUER: booleanFlag.default(true),
  PLATFORM_JWKS_URL: z.url().optional(),
  PLATFORM_TOKEN_ISSUER: z.string().min(1).optional(),
  PLATFORM_TOKEN_AUDIENCE: z.string().min(1).optional(),
  PLATFORM_TOKEN_ALGORITHMS: z
    .string()
    .default('RS256,PS256,ES256')
    .transform((text) =>
      text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(PLATFORM_ALGORITHMS, 'lists an algorithm that is not an asymmetric JWS algorithm')).min(1)),
  PLATFORM_USUARIO_ID_CLAIM: claimPathSchema.default('usuarioId'),
  PLATFORM_SISTEMA_ORIGEM_CLAIM: claimPathSchema.default('sistemaOrigem'),
  PLATFORM_CLIENT_ID_CLAIM: claimPathSchema.default('client_id'),
  PLATFORM_CLOCK_TOLERANCE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
};

type PlatformEnv = z.infer<z.ZodObject<typeof platformTokenEnvShape>> & { TOKEN_ISSUER: string };

export function checkPlatformTokenEnv(value: PlatformEnv, ctx: z.RefinementCtx): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (value.PLATFORM_JWKS_URL) {
    const url = new URL(value.PLATFORM_JWKS_URL);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
      issue('PLATFORM_JWKS_URL', 'must be https:// (plain http only for a loopback address)');
    }
    if (!value.PLATFORM_TOKEN_ISSUER) issue('PLATFORM_TOKEN_ISSUER', 'is required with PLATFORM_JWKS_URL');
    if (!value.PLATFORM_TOKEN_AUDIENCE) issue('PLATFORM_TOKEN_AUDIENCE', 'is required with PLATFORM_JWKS_URL');
    if (value.AUTH_EMBEDDED_ISSUER && value.PLATFORM_TOKEN_ISSUER === value.TOKEN_ISSUER) {
      issue('PLATFORM_TOKEN_ISSUER', 'must differ from TOKEN_ISSUER, which names the embedded issuer');
    }
  } else {
    for (const name of ['PLATFORM_TOKEN_ISSUER', 'PLATFORM_TOKEN_AUDIENCE'] as const) {
      if (value[name]) issue(name, 'is only used with PLATFORM_JWKS_URL');
    }
    if (!value.AUTH_EMBEDDED_ISSUER) {
      issue('AUTH_EMBEDDED_ISSUER', 'false leaves no way to authenticate: set PLATFORM_JWKS_URL too');
    }
  }
}

export type PlatformTokenConfig = {
  jwksUrl: URL;
  issuer: string;
  audience: string;
  algorithms: string[];
  usuarioIdClaim: string;
  sistemaOrigemClaim: string;
  clientIdClaim: string;
  clockToleranceSeconds: number;
};

export function platformTokenConfigFrom(value: PlatformEnv): PlatformTokenConfig | undefined {
  if (!value.PLATFORM_JWKS_URL || !value.PLATFORM_TOKEN_ISSUER || !value.PLATFORM_TOKEN_AUDIENCE) return undefined;
  return {
    jwksUrl: new URL(value.PLATFORM_JWKS_URL),
    issuer: value.PLATFORM_TOKEN_ISSUER,
    audience: value.PLATFORM_TOKEN_AUDIENCE,
    algorithms: value.PLATFORM_TOKEN_ALGORITHMS,
    usuarioIdClaim: value.PLATFORM_USUARIO_ID_CLAIM,
    sistemaOrigemClaim: value.PLATFORM_SISTEMA_ORIGEM_CLAIM,
    clientIdClaim: value.PLATFORM_CLIENT_ID_CLAIM,
    clockToleranceSeconds: value.PLATFORM_CLOCK_TOLERANCE_SECONDS,
  };
}
