import { expect, test, type APIRequestContext } from '@playwright/test';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Webhook } from 'standardwebhooks';
import { apiPath, routes } from '@/lib/api/routes';
import { SCHEDULING_EVENT_FLAGS } from '@/lib/webhooks/events/types';
import { bearer, FLAGS_OFF, RESERVE_PATH, reservationBody } from '../support/api';
import { privateDatabase } from '../support/databases';
import { Receiver } from '../support/receiver';
import { freePort, newDataDir, startServer, type RunningServer } from '../support/server';
import { PROCEDURES, slotOf, TENANT_A, TENANT_B, THROTTLE_CLIENT, buildTestSeed } from '../support/test-seed';

/**
 * The scheduling waitlist (issue 48) on a server of its own (its worker looks for free slots every
 * second, an offer lasts 15 s, a tenant has at most 4 entries in line), against the embedded
 * scheduler and, in a PostgreSQL run, a database of its own. Its entries accept agendas 916–918
 * only, which no other spec reserves.
 */
test.describe.configure({ mode: 'serial' });

const OFFER_SECONDS = 15;
const QUOTA = 4;
let server: RunningServer;
let drop: () => Promise<void>;
const receiver = new Receiver();
let secretA = '';

const url = (path: string) => `${server.url}${path}`;
const entryPath = (id: string) => url(apiPath(routes.getWaitlistEntry, { id }));

async function token(request: APIRequestContext, client: { clientId: string; clientSecret: string }): Promise<string> {
  const response = await request.post(url(apiPath(routes.issueToken)), {
    form: { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret },
  });
  expect(response.status()).toBe(200);
  return (await response.json()).access_token;
}

/** The start of a seed slot, from the seed itself. */
function startOf(slot: number): string {
  const found = buildTestSeed().slots.find((candidate) => candidate.nrSeqAgenda === slot);
  if (!found) throw new Error(`no slot ${slot}`);
  return new Date(found.start).toISOString();
}

/** An entry waiting for exactly one slot (its window is that slot's start) on the slot's agenda. */
function entryFor(slot: number, cdPessoaFisica: number, procedure = PROCEDURES.ultrassom) {
  const start = Date.parse(startOf(slot));
  return {
    nrSeqProcInterno: procedure,
    nrMinDuracao: 30,
    cdAgendas: [Math.floor(slot / 1000)],
    de: new Date(start - 60_000).toISOString(),
    ate: new Date(start + 60_000).toISOString(),
    cdPessoaFisica,
    cdConvenio: 12,
    cdCategoria: 1,
    cdPlano: 3,
    cdUsuarioConvenio: `00123456${cdPessoaFisica}`,
    nmUsuario: 'lista-espera',
  };
}

async function add(request: APIRequestContext, auth: string, body: Record<string, unknown>) {
  const response = await request.post(url(apiPath(routes.addWaitlistEntry)), { headers: bearer(auth), data: body });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; situacao: string };
}

type EntryView = {
  id: string;
  situacao: string;
  oferta: { situacao: string; nrSeqAgenda: number; tokenReserva: string | null; prazo: string | null } | null;
};

async function entry(request: APIRequestContext, auth: string, id: string): Promise<EntryView> {
  const response = await request.get(entryPath(id), { headers: bearer(auth) });
  expect(response.status()).toBe(200);
  return (await response.json()) as EntryView;
}

async function reserve(request: APIRequestContext, auth: string, slot: number, cdPessoaFisica: number): Promise<string> {
  const response = await request.post(url(RESERVE_PATH), {
    headers: bearer(auth),
    data: reservationBody({ nrSeqAgenda: slot, cdPessoaFisica }),
  });
  expect(response.status()).toBe(200);
  return (await response.json()).TOKEN_RESERVA_P;
}

async function release(request: APIRequestContext, auth: string, slot: number, cdPessoaFisica: number, tokenReservaCanc: string) {
  const response = await request.post(url(RESERVE_PATH), {
    headers: bearer(auth),
    data: reservationBody({ nrSeqAgenda: slot, cdPessoaFisica, ieOpcao: 'CR', tokenReservaCanc }),
  });
  expect((await response.json()).CODIGO_P).toBe('1');
}

/** The scheduling events tenant A's receiver got, verified with its secret as a consumer would (standardwebhooks). */
function eventsReceived(): { type: string; data: Record<string, unknown> }[] {
  const hook = new Webhook(secretA);
  return receiver
    .at('/agenda-a')
    .map(
      (request) => hook.verify(request.body, request.headers as Record<string, string>) as { type: string; data: Record<string, unknown> },
    );
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  await receiver.start();
  const database = await privateDatabase('waitlist');
  drop = database.drop;
  server = await startServer({
    dataDir: newDataDir('waitlist'),
    env: {
      ...database.env,
      WAITLIST_SCAN_SECONDS: '1',
      WAITLIST_OFFER_MINUTES: String(OFFER_SECONDS / 60),
      WAITLIST_MAX_ENTRIES_PER_TENANT: String(QUOTA),
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
  });
  // Tenant A's receiver of the scheduling events, every other event off.
  const auth = await token(request, TENANT_A);
  const flags = { ...FLAGS_OFF, ...Object.fromEntries(SCHEDULING_EVENT_FLAGS.map((flag) => [flag, true])) };
  const created = await request.post(url(apiPath(routes.createWebhookConfiguration)), {
    headers: bearer(auth),
    data: { url: receiver.url('/agenda-a'), ...flags },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = await created.json();
  const secret = await request.get(url(apiPath(routes.getWebhookSecret, { id })), { headers: bearer(auth) });
  secretA = (await secret.json()).segredo;
});

test.afterAll(async () => {
  await server?.stop();
  await receiver.stop();
  await drop?.();
});

test('a release offers the slot to the first entry in line; a decline and a deadline pass it on in order; the events arrive signed', async ({
  request,
}) => {
  test.setTimeout(120_000);
  const auth = await token(request, TENANT_A);
  const slot = slotOf(916, 5);
  const held = await reserve(request, auth, slot, 48_000);
  const first = await add(request, auth, entryFor(slot, 48_001));
  const second = await add(request, auth, entryFor(slot, 48_002));
  const third = await add(request, auth, entryFor(slot, 48_003));
  expect(first.situacao).toBe('aguardando');

  // The slot is taken: nobody is offered it, however many passes run.
  await expect.poll(async () => (await entry(request, auth, first.id)).situacao).toBe('aguardando');

  await release(request, auth, slot, 48_000, held);
  await expect.poll(async () => (await entry(request, auth, first.id)).situacao, { timeout: 10_000 }).toBe('ofertada');
  const offered = await entry(request, auth, first.id);
  expect(offered.oferta).toMatchObject({ situacao: 'ofertada', nrSeqAgenda: slot });
  expect(offered.oferta?.tokenReserva).toMatch(/^[0-9A-F]{32}$/);
  expect((await entry(request, auth, second.id)).situacao).toBe('aguardando');

  // The hold is real: the slot is no longer free for anyone else.
  const other = await token(request, TENANT_B);
  const taken = await request.post(url(RESERVE_PATH), {
    headers: bearer(other),
    data: reservationBody({ nrSeqAgenda: slot, cdPessoaFisica: 48_100 }),
  });
  expect((await taken.json()).CODIGO_P).toBe('2');

  // Declined: released (CR) and offered to the next in line.
  const declined = await request.post(url(apiPath(routes.declineWaitlistOffer, { id: first.id })), { headers: bearer(auth) });
  expect(declined.status()).toBe(200);
  expect((await declined.json()).situacao).toBe('recusada');
  await expect.poll(async () => (await entry(request, auth, second.id)).situacao, { timeout: 10_000 }).toBe('ofertada');

  // Its deadline passes unanswered: released and offered to the third.
  await expect
    .poll(async () => (await entry(request, auth, second.id)).situacao, { timeout: (OFFER_SECONDS + 15) * 1000 })
    .toBe('expirada');
  await expect.poll(async () => (await entry(request, auth, third.id)).situacao, { timeout: 10_000 }).toBe('ofertada');
  const late = await request.post(url(apiPath(routes.acceptWaitlistOffer, { id: second.id })), { headers: bearer(auth) });
  expect(late.status()).toBe(409);
  expect(late.headers()['content-type']).toContain('application/problem+json');

  const accepted = await request.post(url(apiPath(routes.acceptWaitlistOffer, { id: third.id })), { headers: bearer(auth) });
  expect(accepted.status()).toBe(200);
  const acceptedEntry = (await accepted.json()) as EntryView;
  expect(acceptedEntry).toMatchObject({ situacao: 'aceita', oferta: { situacao: 'aceita', nrSeqAgenda: slot } });
  // The reservation is the partner's: it releases it like any other, with its token.
  await release(request, auth, slot, 48_003, acceptedEntry.oferta!.tokenReserva!);

  // Every event reached tenant A's receiver signed, in the order things happened.
  await expect
    .poll(
      () =>
        eventsReceived()
          .filter((event) => event.data.nrSeqAgenda === slot)
          .map((event) => event.type),
      { timeout: 20_000 },
    )
    .toEqual(
      expect.arrayContaining(['agendamento.reservado', 'agendamento.liberado', 'agendamento.ofertado', 'agendamento.oferta-expirada']),
    );
  const events = eventsReceived().filter((event) => event.data.nrSeqAgenda === slot);
  const offers = events.filter((event) => event.type === 'agendamento.ofertado');
  expect(offers.map((event) => event.data.entradaId)).toEqual([first.id, second.id, third.id]);
  expect(offers[0]!.data).toMatchObject({
    usuarioId: TENANT_A.usuarioId,
    tokenReserva: offered.oferta!.tokenReserva,
    prazo: offered.oferta!.prazo,
  });
  const expired = events.find((event) => event.type === 'agendamento.oferta-expirada');
  expect(expired?.data).toMatchObject({ entradaId: second.id });
  const releases = events.filter((event) => event.type === 'agendamento.liberado').map((event) => event.data.motivo);
  expect(releases).toEqual(expect.arrayContaining(['cancelada', 'recusada', 'oferta-expirada']));
  // Each validates against its entry in the published catalogue (the OpenAPI document's `webhooks`).
  const catalogue = (await (await request.get(url(apiPath(routes.openApiDocument)))).json()) as {
    webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } }>;
    components: { schemas: Record<string, object> };
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const event of events) {
    const name = catalogue.webhooks[event.type]!.post.requestBody.content['application/json'].schema.$ref.split('/').at(-1)!;
    const validate = ajv.compile(catalogue.components.schemas[name]!);
    expect(validate(event), `${event.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
  }
  // No patient identifier travels in a scheduling event.
  expect(JSON.stringify(events)).not.toContain(entryFor(slot, 48_001).cdUsuarioConvenio);
});

test('tenants take turns for an exam: a tenant with more entries ahead does not take every freed slot', async ({ request }) => {
  const a = await token(request, TENANT_A);
  const b = await token(request, TENANT_B);
  const [s1, s2] = [slotOf(917, 0), slotOf(917, 1)];
  const held1 = await reserve(request, b, s1, 48_200);
  const held2 = await reserve(request, b, s2, 48_201);
  const window = (cdPessoaFisica: number) => ({
    ...entryFor(s1, cdPessoaFisica, PROCEDURES.raioX),
    ate: new Date(Date.parse(startOf(s2)) + 60_000).toISOString(),
  });
  const a1 = await add(request, a, window(48_210));
  const a2 = await add(request, a, window(48_211));
  const b1 = await add(request, b, window(48_212));

  await release(request, b, s1, 48_200, held1);
  await expect.poll(async () => (await entry(request, a, a1.id)).situacao, { timeout: 10_000 }).toBe('ofertada');
  expect((await request.post(url(apiPath(routes.acceptWaitlistOffer, { id: a1.id })), { headers: bearer(a) })).status()).toBe(200);
  await release(request, b, s2, 48_201, held2);
  // Tenant A was just offered a slot of this exam: it is B's turn, though A's second entry came first.
  await expect.poll(async () => (await entry(request, b, b1.id)).situacao, { timeout: 10_000 }).toBe('ofertada');
  expect((await entry(request, a, a2.id)).situacao).toBe('aguardando');
  expect((await entry(request, b, b1.id)).oferta?.nrSeqAgenda).toBe(s2);
  for (const [auth, id] of [
    [a, a1.id],
    [a, a2.id],
    [b, b1.id],
  ] as const) {
    expect((await request.delete(entryPath(id), { headers: bearer(auth) })).status()).toBe(204);
  }
});

test('a tenant never sees nor answers another tenant’s entries and offers', async ({ request }) => {
  const a = await token(request, TENANT_A);
  const b = await token(request, TENANT_B);
  const mine = await add(request, a, { ...entryFor(slotOf(918, 3), 48_300), cdAgendas: [999] });
  const listed = await request.get(url(apiPath(routes.listWaitlistEntries)), { headers: bearer(b) });
  expect(listed.status()).toBe(200);
  const ids = ((await listed.json()) as { id: string; usuarioId: string }[]).map((view) => view.usuarioId);
  expect(ids.every((usuarioId) => usuarioId === TENANT_B.usuarioId)).toBe(true);
  for (const response of [
    await request.get(entryPath(mine.id), { headers: bearer(b) }),
    await request.post(url(apiPath(routes.acceptWaitlistOffer, { id: mine.id })), { headers: bearer(b) }),
    await request.post(url(apiPath(routes.declineWaitlistOffer, { id: mine.id })), { headers: bearer(b) }),
    await request.delete(entryPath(mine.id), { headers: bearer(b) }),
  ]) {
    expect(response.status()).toBe(404);
  }
  // Nor can it put a patient on another tenant's list.
  const planted = await request.post(url(apiPath(routes.addWaitlistEntry)), {
    headers: bearer(b),
    data: { ...entryFor(slotOf(918, 3), 48_301), usuarioId: TENANT_A.usuarioId },
  });
  expect(planted.status()).toBe(403);
  expect((await entry(request, a, mine.id)).situacao).toBe('aguardando');
  expect((await request.delete(entryPath(mine.id), { headers: bearer(a) })).status()).toBe(204);
});

test('a tenant’s list is bounded: past WAITLIST_MAX_ENTRIES_PER_TENANT a create answers 429 problem+json naming the limit', async ({
  request,
}) => {
  const auth = await token(request, THROTTLE_CLIENT);
  // Agenda 999's only slot is in the past: these entries wait, whatever the passes do.
  for (let i = 0; i < QUOTA; i++) await add(request, auth, { ...entryFor(slotOf(918, 0), 48_400 + i), cdAgendas: [999] });
  const refused = await request.post(url(apiPath(routes.addWaitlistEntry)), {
    headers: bearer(auth),
    data: { ...entryFor(slotOf(918, 0), 48_499), cdAgendas: [999] },
  });
  expect(refused.status()).toBe(429);
  expect(refused.headers()['content-type']).toContain('application/problem+json');
  expect(refused.headers()['retry-after']).toBeDefined();
  expect(await refused.json()).toMatchObject({ limite: QUOTA });
});

test('bad input is a 400 naming the field', async ({ request }) => {
  const auth = await token(request, TENANT_A);
  const fieldsOf = async (data: Record<string, unknown>) => {
    const response = await request.post(url(apiPath(routes.addWaitlistEntry)), { headers: bearer(auth), data });
    expect(response.status()).toBe(400);
    expect(response.headers()['content-type']).toContain('application/problem+json');
    return ((await response.json()).errors as { field: string }[]).map((error) => error.field);
  };
  expect(await fieldsOf({ ...entryFor(slotOf(918, 0), 48_500), ate: '2020-01-01T00:00:00Z' })).toEqual(['ate']);
  expect(await fieldsOf({ ...entryFor(slotOf(918, 0), 48_500), cdAgendas: [] })).toEqual(['cdAgendas']);
  expect(await fieldsOf({ ...entryFor(slotOf(918, 0), 48_500), nrSeqProcInterno: '70001' })).toEqual(['nrSeqProcInterno']);
});

test('a scheduling back-end that cannot be reached leaves entries waiting, with nothing reserved for them', async ({ request }) => {
  test.setTimeout(90_000);
  // The hospital's Oracle procedure and free-slot view, on a port nothing listens on.
  const database = await privateDatabase('waitlist_outage');
  const down = await startServer({
    dataDir: newDataDir('waitlist-outage'),
    env: {
      ...database.env,
      SCHEDULING_BACKEND: 'oracle',
      ORACLE_CONNECT_STRING: `127.0.0.1:${await freePort()}/FREEPDB1`,
      ORACLE_USER: 'integracao',
      ORACLE_PASSWORD: 'segredo-de-teste',
      ORACLE_PROCEDURE: 'TASY.AGENDA_PCK.RESERVAR_HORARIO',
      ORACLE_FREE_SLOTS_VIEW: 'TASY.VW_HORARIOS_LIVRES',
      ORACLE_CONNECT_TIMEOUT_SECONDS: '1',
      WAITLIST_SCAN_SECONDS: '1',
    },
  });
  try {
    const response = await request.post(`${down.url}${apiPath(routes.issueToken)}`, {
      form: { grant_type: 'client_credentials', client_id: TENANT_A.clientId, client_secret: TENANT_A.clientSecret },
    });
    const auth = (await response.json()).access_token as string;
    const created = await request.post(`${down.url}${apiPath(routes.addWaitlistEntry)}`, {
      headers: bearer(auth),
      data: entryFor(slotOf(918, 1), 48_600),
    });
    expect(created.status()).toBe(201);
    const { id } = await created.json();
    // The passes cannot list the free slots: they say so in the log, and the entry keeps waiting.
    await expect.poll(() => (down.logs().match(/waitlist\.slots_unavailable/g) ?? []).length, { timeout: 30_000 }).toBeGreaterThan(1);
    const entry = (await (
      await request.get(`${down.url}${apiPath(routes.getWaitlistEntry, { id })}`, { headers: bearer(auth) })
    ).json()) as EntryView;
    expect(entry).toMatchObject({ situacao: 'aguardando', oferta: null });
    expect(down.logs()).not.toContain('segredo-de-teste');
    expect(down.logs()).not.toContain(entryFor(slotOf(918, 1), 48_600).cdUsuarioConvenio);
  } finally {
    await down.stop();
    await database.drop();
  }
});
