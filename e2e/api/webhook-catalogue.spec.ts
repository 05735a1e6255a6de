import { expect, test, type APIRequestContext } from '@playwright/test';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, tokenFor } from '../support/api';
import { privateDatabase } from '../support/databases';
import { Receiver } from '../support/receiver';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { PRODUCER, TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * The event catalogue (issue 22): GET /api/openapi.json has a `webhooks` entry for every event
 * type, and the messages the worker really sends — to a real receiver on 127.0.0.1 — validate
 * against that entry's schema, headers included. A tampered message does not, so the check bites.
 */
test.describe.configure({ mode: 'serial' });

const FLAGS = {
  eventoAvaliacaoSaudeAprovada: 'avaliacao-saude.aprovada',
  eventoAvaliacaoSaudeAguardandoAprovacao: 'avaliacao-saude.aguardando-aprovacao',
  eventoAvaliacaoSaudeArquivada: 'avaliacao-saude.arquivada',
  eventoAvaliacaoSaudeDesarquivada: 'avaliacao-saude.desarquivada',
  eventoPropostaCancelada: 'proposta.cancelada',
} as const;

/** The scheduling events the product publishes itself (issue 48): e2e/api/waitlist.spec.ts receives them for real. */
const SCHEDULING = ['agendamento.reservado', 'agendamento.liberado', 'agendamento.ofertado', 'agendamento.oferta-expirada'];

const OPERATIONAL = ['configuracao.desativada', 'circuito.aberto', 'configuracao.recuperada', 'configuracao.religada', 'entrega.esgotada'];

type Operation = {
  parameters: { name: string; in: string; required: boolean; schema: { pattern?: string } }[];
  requestBody: { content: { 'application/json': { schema: { $ref: string }; example: unknown } } };
  responses: Record<string, unknown>;
};
type Document = { webhooks: Record<string, { post: Operation }>; components: { schemas: Record<string, object> } };

let server: RunningServer;
let receiver: Receiver;
let api: APIRequestContext;
let database: Awaited<ReturnType<typeof privateDatabase>> | undefined;
let document: Document;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  receiver = await new Receiver().start();
  receiver.script('/catalogo', { status: 204 });
  database = await privateDatabase('catalogue');
  server = await startServer({
    dataDir: newDataDir('catalogue'),
    env: { ...database.env, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
  });
  api = await playwright.request.newContext({ baseURL: server.url });
  document = (await (await api.get(apiPath(routes.openApiDocument))).json()) as Document;
});

test.afterAll(async () => {
  await api?.dispose();
  await receiver?.stop();
  await server?.stop();
  await database?.drop();
});

function validatorFor(type: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const name = document.webhooks[type]!.post.requestBody.content['application/json'].schema.$ref.split('/').at(-1)!;
  return ajv.compile(document.components.schemas[name]!);
}

test('every event type, and the test event, has an entry: body schema, signature headers, answers and an example that validates', () => {
  // The operational events (issue 31 §3) go to the operator's receiver: operational-notifications.spec.ts sends them for real.
  expect(Object.keys(document.webhooks).sort()).toEqual([...Object.values(FLAGS), 'webhook.teste', ...SCHEDULING, ...OPERATIONAL].sort());
  for (const [type, { post }] of Object.entries(document.webhooks)) {
    expect(
      post.parameters.filter((parameter) => parameter.in === 'header' && parameter.required).map((parameter) => parameter.name),
    ).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    expect(Object.keys(post.responses).sort()).toEqual(['2XX', '410', '429', '503', 'default']);
    const validate = validatorFor(type);
    expect(validate(post.requestBody.content['application/json'].example), JSON.stringify(validate.errors)).toBe(true);
  }
});

test('the messages the worker sends validate against their entries; a tampered one does not', async () => {
  const tenant = bearer(await tokenFor(api, TENANT_A));
  const everyFlag = Object.fromEntries(Object.keys(FLAGS).map((flag) => [flag, true]));
  const saved = await api.put(apiPath(routes.updateWebhookConfiguration, { id: WEBHOOK_IDS.a1 }), {
    headers: tenant,
    data: { url: receiver.url('/catalogo'), headers: [{ chave: 'X-Origem', valor: 'catalogo' }], ...everyFlag },
  });
  expect(saved.status()).toBe(200);
  const producer = bearer(await tokenFor(api, PRODUCER));
  for (const flag of Object.keys(FLAGS)) {
    const published = await api.post(apiPath(routes.publishEvent), {
      headers: producer,
      // One event without idEvento: data then carries the event's own evt_ id.
      data: {
        tipo: flag,
        usuarioId: TENANT_A.usuarioId,
        dados: { proposta: 42, detalhes: { etapa: flag } },
        ...(flag === 'eventoPropostaCancelada' ? {} : { idEvento: `cat-${flag}` }),
      },
    });
    expect(published.status()).toBe(202);
  }
  expect((await api.post(apiPath(routes.sendTestEvent, { id: WEBHOOK_IDS.a1 }), { headers: tenant })).status()).toBeLessThan(300);
  const received = await receiver.waitFor('/catalogo', 6);

  const seen = new Set<string>();
  for (const request of received) {
    const message = JSON.parse(request.body) as { type: string; data: Record<string, unknown> };
    seen.add(message.type);
    const entry = document.webhooks[message.type];
    expect(entry, message.type).toBeDefined();
    const validate = validatorFor(message.type);
    expect(validate(message), JSON.stringify(validate.errors)).toBe(true);
    for (const parameter of entry!.post.parameters) {
      const value = String(request.headers[parameter.name]);
      if (parameter.schema.pattern) expect(value).toMatch(new RegExp(parameter.schema.pattern));
    }
    expect(request.headers['x-origem']).toBe('catalogo');

    const { usuarioId: _dropped, ...withoutTenant } = message.data;
    expect(validate({ ...message, data: withoutTenant })).toBe(false);
    expect(validate({ ...message, timestamp: 'ontem' })).toBe(false);
  }
  expect([...seen].sort()).toEqual(
    Object.keys(document.webhooks)
      .filter((type) => !OPERATIONAL.includes(type) && !SCHEDULING.includes(type))
      .sort(),
  );
});
