import { expect, type APIRequestContext } from '@playwright/test';
import { PROCEDURES, TENANT_A } from './test-seed';
import { apiPath, routes } from '@/lib/api/routes';
import { WEBHOOK_EVENT_FLAGS, type WebhookEventFlag } from '@/lib/webhooks/events/types';

/** Small helpers for API specs: tokens and a valid reservation body to vary from. */
/** A token for `client`, from the run's shared server, or from the server at `serverUrl` (a spec's own). */
export async function tokenFor(request: APIRequestContext, client: { clientId: string; clientSecret: string } = TENANT_A, serverUrl = '') {
  const response = await request.post(`${serverUrl}${apiPath(routes.issueToken)}`, {
    form: { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret },
  });
  expect(response.status()).toBe(200);
  const body = await response.json();
  return body.access_token as string;
}

/**
 * A real password sign-in through next-auth's credentials callback. On success the context keeps
 * the session cookie (later requests are signed in); answers the error next-auth redirected with,
 * or null.
 */
export async function signInWithPassword(api: APIRequestContext, email: string, password: string): Promise<string | null> {
  const { csrfToken } = (await (await api.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const response = await api.post('/api/auth/callback/credentials', {
    form: { email, password, csrfToken, json: 'true' },
    maxRedirects: 0,
  });
  return new URL(((await response.json()) as { url: string }).url).searchParams.get('error');
}

export function bearer(token: string) {
  return { Authorization: `Bearer ${token}` };
}

export function reservationBody(overrides: Record<string, unknown> = {}) {
  return {
    nrSeqAgenda: 900001,
    nrSeqProcInterno: 70001,
    nrMinDuracao: 30,
    ieOpcao: 'R',
    cdPessoaFisica: 1000,
    cdConvenio: 12,
    cdCategoria: 1,
    cdPlano: 3,
    cdUsuarioConvenio: '0012345678901',
    nmUsuario: 'portal-parceiro',
    ...overrides,
  };
}

/** A valid waitlist entry (ultrassom on any of `cdAgendas`, between `de` and `ate`) to vary from. */
export function waitlistEntryBody(entry: { cdAgendas: number[]; de: number; ate: number; cdPessoaFisica: number }) {
  return {
    nrSeqProcInterno: PROCEDURES.ultrassom,
    nrMinDuracao: 30,
    cdAgendas: entry.cdAgendas,
    de: new Date(entry.de).toISOString(),
    ate: new Date(entry.ate).toISOString(),
    cdPessoaFisica: entry.cdPessoaFisica,
    cdConvenio: 12,
    cdCategoria: 1,
    cdPlano: 3,
    cdUsuarioConvenio: `00123${entry.cdPessoaFisica}`,
    nmUsuario: 'lista-espera',
  };
}

// The paths of the operations' one definition (lib/api/routes.ts).
export const RESERVE_PATH = apiPath(routes.reserveOrReleaseSlot);
export const RESERVE_SAMPLE_PATH = apiPath(routes.reserveOrReleaseSlotSamplePath);
// The id goes in as given, not encoded: specs send malformed segments on purpose.
export const webhookPath = (id: string) => routes.getWebhookConfiguration.path.replace('{id}', id);

/** Every event flag off: a webhook PUT's base when a spec wants exactly the flags it names on. */
export const FLAGS_OFF = Object.fromEntries(WEBHOOK_EVENT_FLAGS.map((flag) => [flag, false])) as Record<WebhookEventFlag, boolean>;
