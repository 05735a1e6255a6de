import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, FLAGS_OFF, RESERVE_PATH, reservationBody, signInWithPassword, tokenFor } from '../support/api';
import { privateDatabase } from '../support/databases';
import { startDeployment, type Deployment } from '../support/deployment';
import { OIDC_CLIENT, OIDC_ROLE_MAP, OIDC_USERS, OidcProvider } from '../support/oidc-provider';
import { OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { Receiver } from '../support/receiver';
import { freePort, newDataDir } from '../support/server';
import { PRODUCER, STAFF, TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * OpenTelemetry traces (issue 20) from servers started with OTEL_EXPORTER_OTLP_ENDPOINT, as this
 * run's E2E_API_SERVER deploys them (npm start, the lean API server beside it, or the container
 * image's command), exporting to an OTLP/HTTP receiver of this spec's own: an API operation
 * continues its caller's W3C trace, with the scheduling back-end's call and the database's
 * statements inside it and the trace id on its log line; each delivery attempt is a trace of its
 * own; Next traces a console page; and nothing exported names a patient, a token or a secret,
 * not even where Next records a request's URL: the one-time link that sets a password and the
 * single sign-on callback (against a real OpenID Connect provider) reach the receiver without
 * their query strings.
 */
test.describe.configure({ mode: 'serial' });

const SERVER = 2;
const CLIENT = 3;
const SERVICE = 'integration-console-e2e';
/** cdPessoaFisica and cdUsuarioConvenio of the reservation: patient identifiers, never to be exported. */
const PATIENT = { cdPessoaFisica: 987_654_321, cdUsuarioConvenio: '0012345678901' };
/** A receiver URL whose path and query carry secrets, as chat webhooks' do, and its custom header's value. */
const RECEIVER_PATH = '/hooks/T0001/B0001/segredo-no-caminho?chave=segredo-na-consulta';
const RECEIVER_HEADER_VALUE = 'segredo-do-cabecalho';

let otlp: OtlpReceiver;
let idp: OidcProvider;
let receiver: Receiver;
let deployment: Deployment;
let database: Awaited<ReturnType<typeof privateDatabase>>;
let api: APIRequestContext;
/** Values that no exported span may contain, gathered by the tests as they learn them. */
const secrets: string[] = [
  String(PATIENT.cdPessoaFisica),
  PATIENT.cdUsuarioConvenio,
  RECEIVER_HEADER_VALUE,
  'segredo-no-caminho',
  'segredo-na-consulta',
];

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000);
  otlp = await new OtlpReceiver().start();
  receiver = await new Receiver().start();
  // Its own database in a PostgreSQL run: the run's other servers' workers would take its deliveries.
  database = await privateDatabase('traces');
  // The identity provider must know the console's address before the console starts: ports first.
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  idp = await new OidcProvider(await freePort(), `${appUrl}/api/auth/callback/oidc`).start();
  deployment = await startDeployment({
    dataDir: newDataDir('traces'),
    port,
    env: {
      ...database.env,
      NEXTAUTH_URL: appUrl,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: OIDC_CLIENT.id,
      OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
      OIDC_ROLES_CLAIM: 'groups',
      OIDC_ROLE_MAP,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: SERVICE,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
  });
  api = await playwright.request.newContext({ baseURL: deployment.url });
});

test.afterAll(async () => {
  await api?.dispose();
  await deployment?.stop();
  await database?.drop();
  await receiver?.stop();
  await idp?.stop();
  await otlp?.stop();
});

/** A caller's own span, as a W3C `traceparent` carries it (sampled). */
function callerSpan() {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** Whether `span` is `ancestor` or below it, by the parents the trace's spans name. */
function descendsFrom(span: ReceivedSpan, ancestor: ReceivedSpan): boolean {
  const byId = new Map(otlp.inTrace(span.traceId).map((each) => [each.spanId, each]));
  for (let at: ReceivedSpan | undefined = span; at; at = at.parentSpanId ? byId.get(at.parentSpanId) : undefined) {
    if (at.spanId === ancestor.spanId) return true;
  }
  return false;
}

/** The first span of the trace this server made: the one whose parent is not among them (the caller's, or none). */
function entryOf(span: ReceivedSpan): ReceivedSpan {
  const byId = new Map(otlp.inTrace(span.traceId).map((each) => [each.spanId, each]));
  let at = span;
  while (at.parentSpanId && byId.has(at.parentSpanId)) at = byId.get(at.parentSpanId)!;
  return at;
}

function logLine(requestId: string): Record<string, unknown> | undefined {
  return deployment
    .logs()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((line) => line.event === 'api.request' && line.requestId === requestId);
}

test('a reservation continues its caller’s trace, with the back-end call and its statements inside and the trace id in its log line', async () => {
  const accessToken = await tokenFor(api, TENANT_A);
  secrets.push(accessToken);
  const caller = callerSpan();
  const requestId = `e2e-trace-${caller.spanId}`;
  const reserved = await api.post(RESERVE_PATH, {
    headers: { ...bearer(accessToken), traceparent: caller.traceparent, 'x-request-id': requestId },
    data: reservationBody(PATIENT),
  });
  expect(reserved.status()).toBe(200);
  const reservation = (await reserved.json()) as { CODIGO_P: string; TOKEN_RESERVA_P: string };
  expect(reservation.CODIGO_P).toBe('0');
  secrets.push(reservation.TOKEN_RESERVA_P);

  const operation = await otlp.waitFor(
    (span) => span.traceId === caller.traceId && span.attributes['app.operation.id'] === 'reserveOrReleaseSlot',
  );
  expect(operation.name).toBe(`POST ${routes.reserveOrReleaseSlot.path}`);
  expect(operation.service).toBe(SERVICE);
  expect(operation.attributes).toMatchObject({
    'http.request.method': 'POST',
    'http.route': routes.reserveOrReleaseSlot.path,
    'http.response.status_code': 200,
    'app.request.id': requestId,
  });
  // The server's first span is the caller's child: the operation's own under `npm start` and the
  // lean path; Next's request span, with the operation's inside, under the container's command.
  const entry = entryOf(operation);
  expect(entry.parentSpanId).toBe(caller.spanId);
  expect(entry.kind).toBe(SERVER);
  if (process.env.E2E_API_SERVER !== 'container') expect(entry).toBe(operation);

  const backend = await otlp.waitFor((span) => span.traceId === caller.traceId && span.name === 'scheduling.reserve');
  expect(descendsFrom(backend, operation)).toBe(true);
  expect(backend.attributes).toMatchObject({
    'app.scheduling.backend': 'embedded',
    'app.scheduling.ie_opcao': 'R',
    'app.scheduling.codigo_p': '0',
    'app.scheduling.ie_reservado': 'S',
  });
  // The reservation's own writes, inside the back-end's call (the embedded scheduler's transaction).
  const statement = await otlp.waitFor(
    (span) => span.traceId === caller.traceId && span.attributes['db.operation.name'] === 'INSERT' && descendsFrom(span, backend),
  );
  expect(statement.kind).toBe(CLIENT);
  expect(statement.attributes['db.system.name']).toBe(database.env.DATABASE_URL ? 'postgresql' : 'sqlite');
  expect(String(statement.attributes['db.query.text'])).toMatch(/^insert into /i);

  // The log line of the request names the trace, and the operation's span within it.
  await expect.poll(() => logLine(requestId)).toMatchObject({ traceId: caller.traceId, spanId: operation.spanId });
});

test('a delivery attempt is a trace of its own: its outcome, the receiver’s answer and host, never its path or query', async () => {
  const tenant = bearer(await tokenFor(api, TENANT_A));
  const configured = await api.put(apiPath(routes.getWebhookConfiguration, { id: WEBHOOK_IDS.a1 }), {
    headers: tenant,
    data: {
      url: receiver.url(RECEIVER_PATH),
      headers: [{ chave: 'X-Api-Key', valor: RECEIVER_HEADER_VALUE }],
      ...FLAGS_OFF,
      eventoAvaliacaoSaudeAprovada: true,
    },
  });
  expect(configured.status()).toBe(200);
  const publisher = callerSpan();
  const published = await api.post(apiPath(routes.publishEvent), {
    headers: { ...bearer(await tokenFor(api, PRODUCER)), traceparent: publisher.traceparent },
    data: { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_A.usuarioId, idEvento: 'rastreado-1', dados: {} },
  });
  expect(published.status()).toBe(202);
  const [received] = await receiver.waitFor(RECEIVER_PATH, 1);
  const deliveryId = String(received!.headers['webhook-id']);

  const attempt = await otlp.waitFor(
    (span) => span.name === 'webhook.attempt' && span.attributes['app.webhook.delivery.id'] === deliveryId,
  );
  expect(attempt.kind).toBe(CLIENT);
  expect(attempt.attributes).toMatchObject({
    'http.request.method': 'POST',
    'url.scheme': 'http',
    'server.address': '127.0.0.1',
    'server.port': Number(new URL(receiver.url('/')).port),
    'http.response.status_code': 204,
    'app.webhook.configuration.id': WEBHOOK_IDS.a1,
    'app.webhook.event.type': 'avaliacao-saude.aprovada',
    'app.webhook.attempt': 1,
    'app.webhook.outcome': 'delivered',
    'app.webhook.delivery.status': 'entregue',
  });
  // Not a part of the publishing request's trace, which has the operation's span.
  expect(attempt.traceId).not.toBe(publisher.traceId);
  expect(attempt.parentSpanId ?? '').toBe('');
  await otlp.waitFor((span) => span.traceId === publisher.traceId && span.attributes['app.operation.id'] === 'publishEvent');
});

test('a console page is traced by Next, in its caller’s trace', async () => {
  const caller = callerSpan();
  const page = await api.get('/sign-in', { headers: { traceparent: caller.traceparent } });
  expect(page.status()).toBe(200);
  const rendered = await otlp.waitFor((span) => span.traceId === caller.traceId && span.name === 'GET /sign-in');
  expect(rendered.kind).toBe(SERVER);
  const entry = entryOf(rendered);
  expect(entry.parentSpanId).toBe(caller.spanId);
  expect(entry.attributes['http.target']).toBe('/sign-in');
});

/** The first span this server made for the caller, once it has arrived: Next's request span, for a console path. */
function entryFor(caller: { traceId: string; spanId: string }): Promise<ReceivedSpan> {
  return otlp.waitFor((span) => span.traceId === caller.traceId && span.parentSpanId === caller.spanId);
}

test('the one-time link that sets a staff password is traced without its token', async ({ playwright }) => {
  const admin = await playwright.request.newContext({ baseURL: deployment.url });
  expect(await signInWithPassword(admin, STAFF.admin.email, STAFF.admin.password)).toBeNull();
  const created = await admin.post(apiPath(routes.createStaff), {
    headers: { origin: deployment.url },
    data: { email: 'rastreada@e2e.exemplo.com.br', nome: 'Rita Rastreada', perfis: ['scheduling'] },
  });
  expect(created.status()).toBe(201);
  const link = new URL(((await created.json()) as { definicaoSenha: { link: string } }).definicaoSenha.link);
  await admin.dispose();
  const token = link.searchParams.get('token')!;
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  secrets.push(token);

  const caller = callerSpan();
  const page = await api.get(`${link.pathname}${link.search}`, { headers: { traceparent: caller.traceparent } });
  expect(page.status()).toBe(200);
  // The link works: its token, in the body, sets the password.
  const set = await api.post(apiPath(routes.setPasswordWithLink), { data: { token, senha: 'Girassol-Trem-Azul-77' } });
  expect(set.status()).toBe(204);

  const entry = await entryFor(caller);
  expect(entry.kind).toBe(SERVER);
  expect(entry.attributes['http.target']).toBe('/definir-senha');
});

/**
 * A single sign-on through the provider's own pages, as a browser follows them: the console's
 * sign-in sends the user to the provider, whose login and consent forms send the user back to the
 * console's callback with `code` and `state`, which the callback, traced, exchanges for a session.
 */
async function signInThroughProvider(context: APIRequestContext, traceparent: string): Promise<{ code: string; state: string }> {
  const { csrfToken } = (await (await context.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const started = await context.post('/api/auth/signin/oidc', {
    form: { csrfToken, callbackUrl: `${deployment.url}/scheduling`, json: 'true' },
  });
  const authorization = ((await started.json()) as { url: string }).url;
  expect(authorization.startsWith(`${idp.issuer}/auth?`)).toBe(true);
  const login = await context.get(authorization);
  const interaction = login.url();
  expect(interaction).toMatch(new RegExp(`^${idp.issuer}/interaction/`));
  const consent = await context.post(interaction, {
    form: { prompt: 'login', login: OIDC_USERS.scheduler.login, password: 'qualquer-senha' },
  });
  expect(await consent.text()).toContain('name="prompt" value="consent"');
  const confirmed = await context.post(consent.url(), { form: { prompt: 'consent' }, maxRedirects: 0 });
  const resumed = await context.get(new URL(confirmed.headers().location!, idp.issuer).href, { maxRedirects: 0 });
  const callback = new URL(resumed.headers().location!, idp.issuer);
  expect(callback.href.startsWith(`${deployment.url}/api/auth/callback/oidc?`)).toBe(true);
  const code = callback.searchParams.get('code')!;
  const state = callback.searchParams.get('state')!;
  expect(code.length).toBeGreaterThan(20);
  expect(state.length).toBeGreaterThan(20);

  const signedIn = await context.get(callback.href, { headers: { traceparent }, maxRedirects: 0 });
  expect(signedIn.status()).toBe(302);
  expect(signedIn.headers().location).toBe(`${deployment.url}/scheduling`);
  return { code, state };
}

test('the single sign-on callback is traced without its code and state', async ({ playwright }) => {
  const browser = await playwright.request.newContext({ baseURL: deployment.url });
  try {
    const caller = callerSpan();
    const { code, state } = await signInThroughProvider(browser, caller.traceparent);
    secrets.push(code, state);
    // The session is real: the scheduling role the provider's group maps to.
    expect((await browser.get(apiPath(routes.listProcedures))).status()).toBe(200);

    const entry = await entryFor(caller);
    expect(entry.kind).toBe(SERVER);
    expect(entry.attributes['http.target']).toBe('/api/auth/callback/oidc');
  } finally {
    await browser.dispose();
  }
});

test('no exported span names a patient, a reservation or access token, a password link’s token, an OIDC code or state, or a receiver’s secret', () => {
  expect(otlp.bodies.length).toBeGreaterThan(0);
  const exported = otlp.bodies.join('\n');
  for (const secret of secrets) expect(exported).not.toContain(secret);
});
