import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Webhook } from 'standardwebhooks';
import { apiPath, routes } from '@/lib/api/routes';
import { OPERATOR_CONFIG_ID, OPERATOR_TENANT } from '@/lib/webhooks/events/operational';
import { bearer, FLAGS_OFF, signInWithPassword, tokenFor } from '../support/api';
import { adminDatabaseUrl, createDatabase, dropDatabase } from '../support/databases';
import { MailServer, type ReceivedMail } from '../support/mail-server';
import { Receiver, type Received } from '../support/receiver';
import { freePort, newDataDir, startServer, type RunningServer } from '../support/server';
import { PRODUCER, STAFF, TENANT_A, TENANT_B, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Operational notifications (issue 31 §3), through real servers: the operator's receiver
 * (OPERATIONAL_WEBHOOK_URL, a real one on 127.0.0.1) gets each operational event once per incident
 * or exhausted delivery, signed with its configuration's secret (checked with the `standardwebhooks`
 * package) and valid against the OpenAPI document; the partner's technical contact gets the
 * switch-off and the switch-back-on e-mails, pt-BR then English, through a real SMTP server. On a
 * server database two instances check for incidents at the same time, every 0.3 s: still once.
 */
test.describe.configure({ mode: 'serial' });

const adminUrl = adminDatabaseUrl();
const CONTACT_A1 = 'ti-a1@parceiro-a.exemplo.com.br';
const CONTACT_A2 = 'ti-a2@parceiro-a.exemplo.com.br';
const CONTACT_A3 = 'ti-a3@parceiro-a.exemplo.com.br';
const CONFIRMATION_SUBJECT = 'Confirme o contato técnico de webhooks / Confirm the webhooks technical contact — Integration Console';

type Message = { type: string; timestamp: string; data: Record<string, unknown> & { configuracao?: { id: string } } };
type Document = { webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } }> };

let servers: RunningServer[] = [];
let databaseUrl: string | undefined;
let partner: Receiver;
let operator: Receiver;
let mail: MailServer;
let api: APIRequestContext;
let staff: APIRequestContext;
let operatorSecret: string;
let document: Document & { components: { schemas: Record<string, object> } };

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000);
  partner = await new Receiver().start();
  partner.script('/gone', { status: 410 });
  partner.script('/fora', { status: 503 });
  partner.script('/ok', { status: 204 });
  operator = await new Receiver().start();
  operator.script('/ops', { status: 204 });
  mail = await new MailServer().start();
  databaseUrl = adminUrl ? await createDatabase(adminUrl, 'operational') : undefined;
  const ports = await Promise.all((databaseUrl ? [0, 1] : [0]).map(() => freePort()));
  const env = {
    NEXTAUTH_URL: `http://127.0.0.1:${ports[0]}`,
    SMTP_URL: mail.url(),
    SMTP_FROM: 'Integration Console <no-reply@hospital.exemplo.com.br>',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    OPERATIONAL_WEBHOOK_URL: operator.url('/ops'),
    WEBHOOK_RETRY_SCHEDULE: '0.1,0.1,0.1',
    WEBHOOK_CIRCUIT_FAILURES: '2',
    WEBHOOK_CIRCUIT_OPEN_SECONDS: '0.5',
    WEBHOOK_ALERT_CIRCUIT_MINUTES: '0.02',
    WEBHOOK_ALERT_CHECK_SECONDS: '0.3',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, AUTH_SECRET: randomBytes(32).toString('base64url') } : {}),
  };
  // Started together: both make the operator's configuration at the same moment, once.
  servers = await Promise.all(ports.map((port, index) => startServer({ port, dataDir: newDataDir(`operational-${index}`), env })));
  api = await playwright.request.newContext({ baseURL: servers[0]!.url });
  staff = await playwright.request.newContext({ baseURL: servers[0]!.url });
  expect(await signInWithPassword(staff, STAFF.webhooks.email, STAFF.webhooks.password)).toBeNull();
  document = (await (await api.get(apiPath(routes.openApiDocument))).json()) as typeof document;
});

test.afterAll(async () => {
  await api?.dispose();
  await staff?.dispose();
  await Promise.all(servers.map((server) => server.stop()));
  await partner?.stop();
  await operator?.stop();
  await mail?.stop().catch(() => undefined);
  if (adminUrl && databaseUrl) await dropDatabase(adminUrl, databaseUrl);
});

/** The operator receiver's messages about `configId` of `type`, each verified with the operator configuration's secret. */
function operational(type: string, configId: string): { message: Message; request: Received }[] {
  return operator
    .at('/ops')
    .map((request) => ({ request, message: JSON.parse(request.body) as Message }))
    .filter(({ message }) => message.type === type && message.data.configuracao?.id === configId);
}

/** Checks a message's signature (standardwebhooks, as a receiver would) and its schema in the OpenAPI document. */
function expectSignedAndDocumented({ request, message }: { request: Received; message: Message }) {
  const verified = new Webhook(operatorSecret).verify(request.body, request.headers as Record<string, string>);
  expect(verified).toEqual(message);
  expect(() =>
    new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(request.body, request.headers as Record<string, string>),
  ).toThrow();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const name = document.webhooks[message.type]!.post.requestBody.content['application/json'].schema.$ref.split('/').at(-1)!;
  const validate = ajv.compile(document.components.schemas[name]!);
  expect(validate(message), JSON.stringify(validate.errors)).toBe(true);
  // Nothing of the partner's own: its receiver's path, headers or event data.
  expect(request.body).not.toContain('/gone');
  expect(request.body).not.toContain('/fora');
  expect(request.body).not.toContain('segredo-do-parceiro');
  expect(request.body).not.toContain('dado-do-beneficiario');
}

async function configure(
  id: string,
  path: string,
  flag: 'eventoAvaliacaoSaudeArquivada' | 'eventoAvaliacaoSaudeDesarquivada',
  contact: string,
) {
  const response = await api.put(apiPath(routes.updateWebhookConfiguration, { id }), {
    headers: bearer(await tokenFor(api, TENANT_A)),
    data: {
      url: partner.url(path),
      headers: [{ chave: 'X-Api-Key', valor: 'segredo-do-parceiro' }],
      ...FLAGS_OFF,
      [flag]: true,
      emailContato: contact,
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  expect(await response.json()).toMatchObject({ emailContato: contact, emailContatoConfirmado: false });
}

/** The token of the confirmation link e-mailed to `contact` (the one mail an unconfirmed address gets). */
async function confirmationToken(contact: string): Promise<string> {
  await expect.poll(() => mailsTo(contact).length, { timeout: 15_000 }).toBeGreaterThan(0);
  const [message] = mailsTo(contact);
  expect(message!.subject).toBe(CONFIRMATION_SUBJECT);
  const link = new RegExp(`^(${servers[0]!.url}/confirmar-contato\\?token=[\\w-]+)$`, 'm').exec(message!.text)?.[1];
  expect(link, message!.text).toBeDefined();
  return new URL(link!).searchParams.get('token')!;
}

const confirm = (token: string) => api.post(apiPath(routes.confirmContactEmail), { data: { token } });

/** The contact's owner confirms it from the link, as the confirmation page's button does. */
async function confirmContact(contact: string) {
  expect((await confirm(await confirmationToken(contact))).status()).toBe(204);
}

async function contactOf(id: string) {
  const response = await api.get(apiPath(routes.getWebhookConfiguration, { id }), { headers: bearer(await tokenFor(api, TENANT_A)) });
  return (await response.json()) as { emailContato: string | null; emailContatoConfirmado: boolean };
}

async function publish(flag: 'eventoAvaliacaoSaudeArquivada' | 'eventoAvaliacaoSaudeDesarquivada', idEvento: string) {
  const response = await api.post(apiPath(routes.publishEvent), {
    headers: bearer(await tokenFor(api, PRODUCER)),
    data: { tipo: flag, usuarioId: TENANT_A.usuarioId, idEvento, dados: { beneficiario: 'dado-do-beneficiario' } },
  });
  expect(response.status()).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

const mailsTo = (email: string): ReceivedMail[] => mail.received.filter((message) => message.to.includes(email));
/** The notices a contact got: every mail but its confirmation link. */
const noticesTo = (email: string): ReceivedMail[] => mailsTo(email).filter((message) => message.subject !== CONFIRMATION_SUBJECT);

/** Several incident checks of every instance later, still exactly `count`. */
async function stillAfterChecks(read: () => number, count: number) {
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(read()).toBe(count);
}

test('the setting makes the operator’s configuration: staff see it and read its secret, partners do not see it', async () => {
  const listAnswer = await staff.get(apiPath(routes.listWebhookConfigurations));
  expect(listAnswer.status(), await listAnswer.text()).toBe(200);
  const listed = (await listAnswer.json()) as {
    id: string;
    usuarioId: string;
    url: string;
  }[];
  expect(listed.filter((config) => config.usuarioId === OPERATOR_TENANT)).toEqual([
    expect.objectContaining({ id: OPERATOR_CONFIG_ID, url: operator.url('/ops'), ativo: true, emailContato: null }),
  ]);
  const secret = await staff.get(apiPath(routes.getWebhookSecret, { id: OPERATOR_CONFIG_ID }));
  expect(secret.status()).toBe(200);
  operatorSecret = ((await secret.json()) as { segredo: string }).segredo;
  expect(operatorSecret).toMatch(/^whsec_/);
  for (const tenant of [TENANT_A, TENANT_B]) {
    const headers = bearer(await tokenFor(api, tenant));
    const own = (await (await api.get(apiPath(routes.listWebhookConfigurations), { headers })).json()) as { id: string }[];
    expect(own.map((config) => config.id)).not.toContain(OPERATOR_CONFIG_ID);
    expect((await api.get(apiPath(routes.getWebhookSecret, { id: OPERATOR_CONFIG_ID }), { headers })).status()).toBe(404);
  }
});

test('a receiver answering 410 is switched off: the operator gets configuracao.desativada and entrega.esgotada once, signed; the contact one e-mail, pt-BR then English', async () => {
  test.setTimeout(60_000);
  await configure(WEBHOOK_IDS.a1, '/gone', 'eventoAvaliacaoSaudeArquivada', CONTACT_A1);
  await confirmContact(CONTACT_A1);
  expect(await contactOf(WEBHOOK_IDS.a1)).toEqual(expect.objectContaining({ emailContato: CONTACT_A1, emailContatoConfirmado: true }));
  const eventId = await publish('eventoAvaliacaoSaudeArquivada', `operacional-a1-${Date.now()}`);

  await expect.poll(() => operational('configuracao.desativada', WEBHOOK_IDS.a1).length, { timeout: 20_000 }).toBe(1);
  await expect.poll(() => operational('entrega.esgotada', WEBHOOK_IDS.a1).length, { timeout: 20_000 }).toBe(1);
  const [disabled] = operational('configuracao.desativada', WEBHOOK_IDS.a1);
  expectSignedAndDocumented(disabled!);
  expect(disabled!.message.data).toMatchObject({
    usuarioId: OPERATOR_TENANT,
    configuracao: { id: WEBHOOK_IDS.a1, usuarioId: TENANT_A.usuarioId, destino: new URL(partner.url('/')).origin },
    motivo: 'receptor-410',
    incidenteId: expect.stringMatching(/^alr_/),
  });
  const [exhausted] = operational('entrega.esgotada', WEBHOOK_IDS.a1);
  expectSignedAndDocumented(exhausted!);
  expect(exhausted!.message.data).toMatchObject({
    eventoId: eventId,
    tipo: 'avaliacao-saude.arquivada',
    tentativas: 1,
    motivo: 'status-http',
    ultimoStatus: 410,
    entregaId: partner.at('/gone')[0]!.headers['webhook-id'],
  });

  await expect.poll(() => noticesTo(CONTACT_A1).length, { timeout: 15_000 }).toBe(1);
  const [message] = noticesTo(CONTACT_A1);
  expect(message!.subject).toBe('Entregas de webhook desativadas / Webhook deliveries switched off — Integration Console');
  expect(message!.text.indexOf('foram desativadas automaticamente')).toBeGreaterThan(-1);
  expect(message!.text.indexOf('foram desativadas automaticamente')).toBeLessThan(message!.text.indexOf('were switched off automatically'));
  expect(message!.text).toContain('410 (Gone)');
  // The receiver by its origin, never its path (paths carry tokens).
  expect(message!.text).toContain(`receptor ${new URL(partner.url('/')).origin} `);
  expect(message!.text).not.toContain('/gone');
  expect(message!.text).toContain(WEBHOOK_IDS.a1);
  // The configuration's page in the partner portal, in both languages: a page, never a portal link (no token).
  expect(message!.text).toContain(`Portal do parceiro: ${servers[0]!.url}/portal/webhooks/${WEBHOOK_IDS.a1}`);
  expect(message!.text).toContain(`Partner portal: ${servers[0]!.url}/portal/webhooks/${WEBHOOK_IDS.a1}`);
  expect(message!.text).not.toContain('/portal/entrar');
  await stillAfterChecks(() => operational('configuracao.desativada', WEBHOOK_IDS.a1).length + noticesTo(CONTACT_A1).length, 2);
  expect(operational('entrega.esgotada', WEBHOOK_IDS.a1)).toHaveLength(1);
});

test('a receiver down past the threshold: circuito.aberto once, entrega.esgotada for its exhausted delivery, configuracao.recuperada once it answers; no e-mail to the contact', async () => {
  test.setTimeout(90_000);
  await configure(WEBHOOK_IDS.a2, '/fora', 'eventoAvaliacaoSaudeDesarquivada', CONTACT_A2);
  await confirmContact(CONTACT_A2);
  await publish('eventoAvaliacaoSaudeDesarquivada', `operacional-a2-${Date.now()}`);

  await expect.poll(() => operational('circuito.aberto', WEBHOOK_IDS.a2).length, { timeout: 30_000 }).toBe(1);
  const [open] = operational('circuito.aberto', WEBHOOK_IDS.a2);
  expectSignedAndDocumented(open!);
  expect(open!.message.data).toMatchObject({ motivo: 'status-http', ultimoStatus: 503, falhasSeguidas: expect.any(Number) });
  // Four attempts (the schedule's three retries, two of them probes of the open circuit): exhausted, once.
  await expect.poll(() => operational('entrega.esgotada', WEBHOOK_IDS.a2).length, { timeout: 30_000 }).toBe(1);
  expect(operational('entrega.esgotada', WEBHOOK_IDS.a2)[0]!.message.data).toMatchObject({ tentativas: 4, ultimoStatus: 503 });

  // The receiver is back: a new event probes it, the circuit closes and the incident ends, once.
  partner.script('/fora', { status: 204 });
  await publish('eventoAvaliacaoSaudeDesarquivada', `operacional-a2-volta-${Date.now()}`);
  await expect.poll(() => operational('configuracao.recuperada', WEBHOOK_IDS.a2).length, { timeout: 30_000 }).toBe(1);
  const [recovered] = operational('configuracao.recuperada', WEBHOOK_IDS.a2);
  expectSignedAndDocumented(recovered!);
  expect(recovered!.message.data).toMatchObject({ incidente: 'circuito-aberto', incidenteId: open!.message.data.incidenteId });
  await stillAfterChecks(
    () => operational('circuito.aberto', WEBHOOK_IDS.a2).length + operational('configuracao.recuperada', WEBHOOK_IDS.a2).length,
    2,
  );
  // A receiver down is the hospital's to watch: the partner's contact hears of switch-offs only.
  expect(noticesTo(CONTACT_A2)).toEqual([]);
});

test('switched back on: configuracao.religada once, saying the receiver is not confirmed and what was skipped, the contact’s e-mail likewise; configuracao.recuperada only once a delivery succeeds', async () => {
  test.setTimeout(60_000);
  // An event while it is off: skipped, kept for a recovery.
  const skippedEvent = `operacional-a1-ignorado-${Date.now()}`;
  await publish('eventoAvaliacaoSaudeArquivada', skippedEvent);
  expect(operational('configuracao.recuperada', WEBHOOK_IDS.a1)).toEqual([]);
  const switched = await api.put(apiPath(routes.updateWebhookConfiguration, { id: WEBHOOK_IDS.a1 }), {
    headers: bearer(await tokenFor(api, TENANT_A)),
    data: { url: partner.url('/ok'), ativo: true },
  });
  expect(switched.status()).toBe(200);
  // The answer offers the recovery of what was skipped while off.
  const offer = ((await switched.json()) as { recuperacaoSugerida?: { ignoradas: number; desde: string } }).recuperacaoSugerida;
  expect(offer?.ignoradas).toBeGreaterThanOrEqual(1);
  await expect.poll(() => operational('configuracao.religada', WEBHOOK_IDS.a1).length, { timeout: 15_000 }).toBe(1);
  const [religada] = operational('configuracao.religada', WEBHOOK_IDS.a1);
  expectSignedAndDocumented(religada!);
  const [disabled] = operational('configuracao.desativada', WEBHOOK_IDS.a1);
  expect(religada!.message.data).toMatchObject({
    incidenteId: disabled!.message.data.incidenteId,
    receptorConfirmado: false,
    ignoradas: offer!.ignoradas,
    recuperacao: { desde: offer!.desde },
  });

  await expect.poll(() => noticesTo(CONTACT_A1).length, { timeout: 15_000 }).toBe(2);
  const back = noticesTo(CONTACT_A1)[1]!;
  expect(back.subject).toBe('Entregas de webhook religadas / Webhook deliveries switched back on — Integration Console');
  expect(back.text.indexOf('foram religadas')).toBeGreaterThan(-1);
  expect(back.text.indexOf('foram religadas')).toBeLessThan(back.text.indexOf('are on again'));
  expect(back.text).toContain('O receptor ainda não foi confirmado');
  expect(back.text).toContain(`"desde": "${offer!.desde}"`);
  // Switched on is not recovered: nothing has reached the receiver yet.
  await stillAfterChecks(() => operational('configuracao.recuperada', WEBHOOK_IDS.a1).length, 0);

  // The recovery sends the skipped event; the receiver takes it: now it is recovered, once.
  const recovery = await api.post(apiPath(routes.recoverDeliveries, { id: WEBHOOK_IDS.a1 }), {
    headers: bearer(await tokenFor(api, TENANT_A)),
    data: { desde: offer!.desde },
  });
  expect(recovery.status()).toBe(202);
  await expect.poll(() => partner.at('/ok').some((request) => request.body.includes(skippedEvent)), { timeout: 15_000 }).toBe(true);
  await expect.poll(() => operational('configuracao.recuperada', WEBHOOK_IDS.a1).length, { timeout: 15_000 }).toBe(1);
  const [recovered] = operational('configuracao.recuperada', WEBHOOK_IDS.a1);
  expectSignedAndDocumented(recovered!);
  expect(recovered!.message.data).toMatchObject({ incidente: 'desativada', incidenteId: disabled!.message.data.incidenteId });
  expect(Date.parse(String(recovered!.message.data.recuperadaEm))).toBeGreaterThan(Date.parse(String(religada!.message.data.religadaEm)));
  await stillAfterChecks(
    () =>
      operational('configuracao.religada', WEBHOOK_IDS.a1).length +
      operational('configuracao.recuperada', WEBHOOK_IDS.a1).length +
      noticesTo(CONTACT_A1).length,
    4,
  );
  // Every operational message went once: no webhook-id twice.
  const ids = operator.at('/ops').map((request) => String(request.headers['webhook-id']));
  expect(new Set(ids).size).toBe(ids.length);
});

test('a contact nobody confirmed gets its one confirmation e-mail and nothing else; the link confirms once, from the page’s button only', async () => {
  test.setTimeout(60_000);
  await configure(WEBHOOK_IDS.a3, '/gone', 'eventoAvaliacaoSaudeArquivada', CONTACT_A3);
  const token = await confirmationToken(CONTACT_A3);
  const [request] = mailsTo(CONTACT_A3);
  // The confirmation names the receiver by its origin, never its path, and the configuration.
  expect(request!.text).toContain(new URL(partner.url('/')).origin);
  expect(request!.text).not.toContain('/gone');
  expect(request!.text).toContain(WEBHOOK_IDS.a3);
  // pt-BR first, English after.
  expect(request!.text.indexOf('confirme pelo link')).toBeGreaterThan(-1);
  expect(request!.text.indexOf('confirme pelo link')).toBeLessThan(request!.text.indexOf('confirm with the link'));

  // Switched off while unconfirmed: the operator hears of it, the address does not.
  await publish('eventoAvaliacaoSaudeArquivada', `operacional-a3-${Date.now()}`);
  await expect.poll(() => operational('configuracao.desativada', WEBHOOK_IDS.a3).length, { timeout: 20_000 }).toBe(1);
  await stillAfterChecks(() => mailsTo(CONTACT_A3).length, 1);

  // Opening the link (as a mail scanner would) confirms nothing; the page's button does, once.
  const page = await api.get(`/confirmar-contato?token=${token}`);
  expect(page.status()).toBe(200);
  expect(await contactOf(WEBHOOK_IDS.a3)).toMatchObject({ emailContato: CONTACT_A3, emailContatoConfirmado: false });
  expect((await confirm(token)).status()).toBe(204);
  expect(await contactOf(WEBHOOK_IDS.a3)).toMatchObject({ emailContatoConfirmado: true });
  const again = await confirm(token);
  expect(again.status()).toBe(400);
  expect(((await again.json()) as { errors: { field: string }[] }).errors.map((error) => error.field)).toEqual(['token']);

  // Another address starts unconfirmed, with a confirmation of its own; the old link confirms nothing.
  const other = 'outro-ti-a3@parceiro-a.exemplo.com.br';
  const changed = await api.put(apiPath(routes.updateWebhookConfiguration, { id: WEBHOOK_IDS.a3 }), {
    headers: bearer(await tokenFor(api, TENANT_A)),
    data: { emailContato: other },
  });
  expect(await changed.json()).toMatchObject({ emailContato: other, emailContatoConfirmado: false });
  expect(await confirmationToken(other)).not.toBe(token);
});

test('the operator’s configuration shows the operational events it receives, not the partners’ switches, and is never deleted', async () => {
  const page = await staff.get(`/webhooks/${OPERATOR_CONFIG_ID}`, { headers: { 'Accept-Language': 'pt-BR' } });
  expect(page.status()).toBe(200);
  const html = await page.text();
  // Booleans, not the page: a failure would print the whole document.
  const has = (text: string, marker: string | RegExp) => (typeof marker === 'string' ? text.includes(marker) : marker.test(text));
  const deleteButton = />Excluir configuração<\/button>/;
  expect(has(html, '>Eventos operacionais</h2>')).toBe(true);
  for (const type of ['configuracao.desativada', 'circuito.aberto', 'configuracao.recuperada', 'entrega.esgotada'])
    expect(has(html, `>${type}</span>`), type).toBe(true);
  // None of the five partner toggles (their switch ids are the flags), and no delete to offer.
  expect(has(html, 'id="eventoPropostaCancelada"')).toBe(false);
  expect(has(html, deleteButton)).toBe(false);
  // A partner's page keeps both.
  const partnerPage = await (await staff.get(`/webhooks/${WEBHOOK_IDS.a1}`, { headers: { 'Accept-Language': 'pt-BR' } })).text();
  expect(has(partnerPage, 'id="eventoPropostaCancelada"')).toBe(true);
  expect(has(partnerPage, deleteButton)).toBe(true);

  // The API refuses it, saying why: the setting makes it again at each start.
  const refused = await staff.delete(apiPath(routes.deleteWebhookConfiguration, { id: OPERATOR_CONFIG_ID }), {
    headers: { Origin: servers[0]!.url },
  });
  expect(refused.status()).toBe(409);
  expect(refused.headers()['content-type']).toContain('application/problem+json');
  expect(((await refused.json()) as { detail: string }).detail).toContain('OPERATIONAL_WEBHOOK_URL');
  expect((await staff.get(apiPath(routes.getWebhookConfiguration, { id: OPERATOR_CONFIG_ID }))).status()).toBe(200);
});
