import type { Server } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

/**
 * A real OpenID Connect provider on 127.0.0.1 (the `oidc-provider` package, certified by the
 * OpenID Foundation) for the single sign-on specs. Its built-in login page takes a user name
 * (any password); the users below are the only accounts it knows. Roles travel in the ID token's
 * `groups` claim, as Keycloak and Entra ID send group names.
 */
export const OIDC_USERS = {
  /** The provider group `agendamento` maps to the console's scheduling role. */
  scheduler: {
    login: 'gabriela.agenda',
    name: 'Gabriela Agenda',
    email: 'gabriela.agenda@sso.exemplo.com.br',
    groups: ['agendamento', 'todos'],
  },
  /** Only groups the console does not map: refused. */
  unmapped: { login: 'vitor.visitante', name: 'Vitor Visitante', email: 'vitor.visitante@sso.exemplo.com.br', groups: ['todos'] },
  /** The address of an existing password account (test-seed STAFF.scheduling), verified by the provider: linked. */
  verifiedTwin: { login: 'carla.sso', name: 'Carla Agenda (SSO)', email: 'agenda@e2e.exemplo.com.br', groups: ['agendamento'] },
  /** The address of another password account (STAFF.webhooks), not verified by the provider: refused. */
  unverifiedTwin: {
    login: 'impostor',
    name: 'Alguém',
    email: 'webhooks@e2e.exemplo.com.br',
    emailVerified: false,
    groups: ['agendamento'],
  },
} as const;

export const OIDC_CLIENT = { id: 'integration-console', secret: 'segredo-do-cliente-oidc-e2e-2026' };
/** What the console is told (OIDC_ROLE_MAP): provider group names → console roles. */
export const OIDC_ROLE_MAP = 'agendamento=scheduling,ti-integracao=admin';

export type AuthorizationRequest = Record<string, string>;

/**
 * What oidc-provider warns about the way this test provider is meant to be: its in-memory adapter
 * and its built-in login pages (devInteractions) are "quick start, development-only". Those lines
 * are dropped from the run's output, where they read as failures; any other warning it gives is kept.
 */
const EXPECTED_WARNING =
  /oidc-provider WARNING: (a quick start development-only (in-memory adapter|feature devInteractions)|quick start development-only signing keys)/;

let quieted = 0;
const consoleWarn = console.warn;
function quietExpectedWarnings(): () => void {
  if (quieted++ === 0)
    console.warn = (...args: unknown[]) => {
      // Unanchored: oidc-provider colours the line on a terminal.
      if (!(typeof args[0] === 'string' && EXPECTED_WARNING.test(args[0]))) consoleWarn(...args);
    };
  return () => {
    if (--quieted === 0) console.warn = consoleWarn;
  };
}

export class OidcProvider {
  /** The query of every authorization request the console's users were sent with. */
  readonly authorizationRequests: AuthorizationRequest[] = [];
  private server?: Server;
  private restoreWarnings?: () => void;

  constructor(
    readonly port: number,
    private readonly redirectUri: string,
  ) {}

  get issuer(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const configuration: Configuration = {
      clients: [
        {
          client_id: OIDC_CLIENT.id,
          client_secret: OIDC_CLIENT.secret,
          redirect_uris: [this.redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'e2e' }] },
      cookies: { keys: ['oidc-e2e-cookie-key-0123456789'] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
      // The claims of the granted scopes in the ID token too (what the console reads), not only at userinfo.
      conformIdTokenClaims: false,
      // PKCE on every authorization request, confidential client or not.
      pkce: { required: () => true },
      features: { devInteractions: { enabled: true } },
      // Lifetimes of its own (seconds), rather than defaults it prints a notice about on first use.
      ttl: { Interaction: 600, Session: 3600, Grant: 3600, IdToken: 300, AccessToken: 300 },
      findAccount: (_ctx, id) => {
        const user = Object.values(OIDC_USERS).find((candidate) => candidate.login === id);
        if (!user) return undefined;
        const emailVerified = 'emailVerified' in user ? user.emailVerified : true;
        return {
          accountId: id,
          claims: () => ({ sub: id, name: user.name, email: user.email, email_verified: emailVerified, groups: [...user.groups] }),
        };
      },
    };
    this.restoreWarnings = quietExpectedWarnings();
    const provider = new Provider(this.issuer, configuration);
    provider.on('authorization.accepted', (ctx) => this.authorizationRequests.push({ ...(ctx.oidc.params as AuthorizationRequest) }));
    this.server = provider.listen(this.port);
    await new Promise<void>((resolve, reject) => {
      this.server!.once('listening', () => resolve());
      this.server!.once('error', reject);
    });
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.restoreWarnings?.();
    this.restoreWarnings = undefined;
  }
}
