import { z } from 'zod';

/** The token endpoint's shapes (OAuth 2.0 client credentials, RFC 6749 §4.4, §5.1, §5.2). */
export const tokenRequestSchema = z.object({
  grant_type: z.literal('client_credentials'),
  client_id: z.string().optional().meta({ description: 'Or in HTTP Basic.' }),
  client_secret: z.string().optional().meta({ description: 'Or in HTTP Basic.' }),
  scope: z.string().optional().meta({
    description: 'Space-separated scopes (webhooks, scheduling, eventos:publicar), among those of the client; all of them when omitted.',
  }),
});

export const tokenResponseSchema = z.object({
  access_token: z.string().meta({ description: 'A signed JWT to send as Authorization: Bearer.' }),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().meta({ description: 'Seconds until the token expires.' }),
  scope: z.string().meta({ description: 'The scopes granted, space-separated.' }),
});

export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const oauthErrorSchema = z.object({
  error: z.enum(['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_scope']),
  error_description: z.string(),
});

export type OAuthError = z.infer<typeof oauthErrorSchema>;
