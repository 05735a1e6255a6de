import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test';
import fc from 'fast-check';
import { bearer, reservationBody, RESERVE_PATH, tokenFor, webhookPath } from '../support/api';
import { slotOf, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Property: whatever body a caller sends to either operation, the production server answers
 * below 500 and never with a stack trace or database text. Reservations stay on agendas 915–919
 * and beneficiaries 915000–919999, webhook changes on a2, so other specs never see fuzz state.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const LEAK = /at .*\(|SQLITE|knex|ORA-\d|pg_|stack|node_modules|\.ts:\d|TypeError|ReferenceError|undefined is not/i;

let auth: Record<string, string>;
test.beforeAll(async ({ request }) => {
  auth = bearer(await tokenFor(request));
});

/** Values that have broken parsers and validators elsewhere. */
const nasty = fc.oneof(
  fc.anything({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.bigInt().map(String),
  fc.constantFrom(0, -1, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 63, 0.1, '', ' ', '0', 'null', true, null, [], {}),
  fc.constantFrom("' OR 1=1 --", '"; DROP TABLE slots; --', '${7*7}', '<script>x</script>', '\u0000', '\ud800', 'R\u0000', 'ＣＲ', 'r'),
  fc.integer({ min: 1, max: 3000 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown),
);

/** A valid reservation with some fields replaced by nasty values and maybe unknown fields added. */
const reservationBodies = fc
  .record({
    agenda: fc.integer({ min: 915, max: 919 }),
    slot: fc.integer({ min: 0, max: 23 }),
    person: fc.integer({ min: 915_000, max: 919_999 }),
    release: fc.boolean(),
    overrides: fc.dictionary(
      fc.oneof(fc.constantFrom(...Object.keys(reservationBody()), 'ieLado', 'tokenReservaCanc'), fc.string({ maxLength: 12 })),
      nasty,
      { maxKeys: 4 },
    ),
  })
  .map(({ agenda, slot, person, release, overrides }) => {
    const base = reservationBody({
      nrSeqAgenda: slotOf(agenda, slot),
      cdPessoaFisica: person,
      ...(release ? { ieOpcao: 'CR', tokenReservaCanc: 'FUZZ' } : {}),
    });
    const body: Record<string, unknown> = { ...base, ...overrides };
    // A fuzzed number that happens to be a real slot or beneficiary of another spec goes back to ours.
    if (typeof body.nrSeqAgenda === 'number' && body.nrSeqAgenda !== base.nrSeqAgenda) body.nrSeqAgenda = base.nrSeqAgenda + 0.5;
    if (typeof body.cdPessoaFisica === 'number' && body.cdPessoaFisica !== person) body.cdPessoaFisica = person;
    return body;
  });

const webhookBodies = fc.record(
  {
    url: fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string({ unit: 'binary', maxLength: 80 }), nasty),
    headers: fc.oneof(
      fc.array(
        fc.record({
          chave: fc.oneof(fc.string({ unit: 'binary', maxLength: 20 }), nasty),
          valor: fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), nasty),
        }),
        { maxLength: 25 },
      ),
      nasty,
    ),
    eventoAvaliacaoSaudeAprovada: fc.oneof(fc.boolean(), nasty),
    eventoPropostaCancelada: fc.oneof(fc.boolean(), nasty),
    extra: nasty,
  },
  { requiredKeys: [] },
);

/** Raw bodies: not-quite JSON, numbers JSON.parse turns into Infinity, deep nesting, odd unicode. */
const rawBodies = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.json({ maxDepth: 4 }),
  fc.constantFrom(
    '{"nrSeqAgenda": 1e400}',
    '{"url": "\\ud800"}',
    '{',
    '{"a":1,}',
    '[]',
    'null',
    '"x"',
    '\ufeff{}',
    '{"__proto__": {"ieOpcao": "R"}}',
    '{"constructor": {"prototype": {}}}',
  ),
  fc.integer({ min: 1000, max: 20000 }).map((depth) => '{"headers":' + '['.repeat(depth) + ']'.repeat(depth) + '}'),
);

async function expectSafe(response: APIResponse, sent: unknown) {
  const text = await response.text();
  const context = `${response.status()} for ${JSON.stringify(sent)?.slice(0, 300)}: ${text.slice(0, 300)}`;
  expect(response.status(), context).toBeLessThan(500);
  // Field names of unknown keys are the caller's own words echoed back; everything else must be ours.
  const ours = text.replace(/"(field|pointer)":"(?:[^"\\]|\\.)*"/g, '');
  expect(ours, context).not.toMatch(LEAK);
}

async function sendJson(request: APIRequestContext, method: 'post' | 'put', path: string, body: unknown) {
  return request[method](path, { headers: { ...auth, 'Content-Type': 'application/json' }, data: JSON.stringify(body) ?? 'null' });
}

async function sendRaw(request: APIRequestContext, method: 'post' | 'put', path: string, raw: string) {
  return request[method](path, { headers: { ...auth, 'Content-Type': 'application/json' }, data: Buffer.from(raw, 'utf8') });
}

/** Structured bodies, then raw ones, to one operation. */
async function fuzzOperation(request: APIRequestContext, method: 'post' | 'put', path: string, bodies: fc.Arbitrary<unknown>) {
  await fc.assert(
    fc.asyncProperty(bodies, async (body) => expectSafe(await sendJson(request, method, path, body), body)),
    { numRuns: RUNS },
  );
  await fc.assert(
    fc.asyncProperty(rawBodies, async (raw) => expectSafe(await sendRaw(request, method, path, raw), raw)),
    { numRuns: Math.ceil(RUNS / 2) },
  );
}

test('reservation: arbitrary bodies never get a 5xx or leak internals', async ({ request }) => {
  await fuzzOperation(request, 'post', RESERVE_PATH, reservationBodies);
});

test('webhook PUT: arbitrary bodies never get a 5xx or leak internals', async ({ request }) => {
  await fuzzOperation(request, 'put', webhookPath(WEBHOOK_IDS.a2), webhookBodies);
});

test('webhook PUT: arbitrary path ids and If-Match values never get a 5xx', async ({ request }) => {
  await fc.assert(
    fc.asyncProperty(
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 60 }),
      fc.string({ unit: 'grapheme-ascii', maxLength: 60 }),
      async (id, ifMatch) => {
        const response = await request.put(webhookPath(encodeURIComponent(id)), { headers: { ...auth, 'If-Match': ifMatch }, data: {} });
        await expectSafe(response, { id, ifMatch });
      },
    ),
    { numRuns: Math.ceil(RUNS / 2) },
  );
});
