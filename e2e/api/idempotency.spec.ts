import { expect, test, type APIRequestContext } from '@playwright/test';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../lib/idempotency/canonical-json';
import { ownerKey } from '../../lib/auth/principal';
import { IN_FLIGHT_TIMEOUT_MS } from '../../lib/idempotency/constants';
import { ageIdempotencyKey, auditRows, holdIdempotencyKey } from '../support/server-db';
import { bearer, reservationBody, RESERVE_PATH, RESERVE_SAMPLE_PATH, tokenFor } from '../support/api';
import { slotOf, TENANT_A, TENANT_B } from '../support/test-seed';

/** Idempotency-Key on the reservation POST, through the real route, database and scheduler (agendas 910–913). */
const OWNER_A = ownerKey({ kind: 'api-client', issuer: 'embedded', scopes: [], ...TENANT_A });
let auth: Record<string, string>;
test.beforeAll(async ({ request }) => {
  auth = bearer(await tokenFor(request));
});

const newKey = (label: string) => `${label}-${crypto.randomUUID()}`;

function post(request: APIRequestContext, key: string, data: unknown, path = RESERVE_PATH, headers = auth) {
  return request.post(path, { headers: { ...headers, 'Idempotency-Key': key }, data });
}

const reservesOf = (nrSeqAgenda: number) => auditRows(`slot:${nrSeqAgenda}`, 'slot.reserve');

test('a retry with the same key and body replays the stored answer without reserving again', async ({ request }) => {
  const key = newKey('replay');
  const body = reservationBody({ nrSeqAgenda: slotOf(910, 0), cdPessoaFisica: 910001 });
  const first = await post(request, key, body);
  expect(first.status()).toBe(200);
  expect(first.headers()['idempotency-replayed']).toBeUndefined();
  const reservation = await first.json();
  expect(reservation.CODIGO_P).toBe('0');

  // Same fields in another order, and on the sample path: the same request.
  const reordered = Object.fromEntries(Object.entries(body).reverse());
  for (const path of [RESERVE_PATH, RESERVE_SAMPLE_PATH]) {
    const again = await post(request, key, reordered, path);
    expect(again.status()).toBe(200);
    expect(again.headers()['idempotency-replayed']).toBe('true');
    expect(await again.json()).toEqual(reservation);
  }
  expect(await reservesOf(slotOf(910, 0))).toHaveLength(1);

  // Without a key the procedure runs: the slot is taken now.
  const plain = await request.post(RESERVE_PATH, { headers: auth, data: body });
  expect((await plain.json()).CODIGO_P).toBe('2');
});

test('the same key with a different body is refused with 422', async ({ request }) => {
  const key = newKey('other-body');
  const body = reservationBody({ nrSeqAgenda: slotOf(910, 2), cdPessoaFisica: 910002 });
  expect((await post(request, key, body)).status()).toBe(200);
  const other = await post(request, key, { ...body, nrSeqAgenda: slotOf(910, 3) });
  expect(other.status()).toBe(422);
  expect(other.headers()['content-type']).toContain('application/problem+json');
  expect((await other.json()).type).toContain('idempotency-key-reused');
  expect(await reservesOf(slotOf(910, 3))).toHaveLength(0);
});

test('concurrent duplicates run the procedure once; the others wait (409) or replay it', async ({ request }) => {
  const key = newKey('concurrent');
  const nrSeqAgenda = slotOf(911, 0);
  const body = reservationBody({ nrSeqAgenda, cdPessoaFisica: 911001 });
  // One connection each (plain fetch), so the server really has them all in hand at once.
  const url = new URL(RESERVE_PATH, test.info().project.use.baseURL).toString();
  const send = () =>
    fetch(url, {
      method: 'POST',
      headers: { ...auth, 'Idempotency-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const responses = await Promise.all(Array.from({ length: 20 }, send));
  const executed = responses.filter((r) => r.status === 200 && !r.headers.has('idempotency-replayed'));
  const replayed = responses.filter((r) => r.status === 200 && r.headers.get('idempotency-replayed') === 'true');
  const inFlight = responses.filter((r) => r.status === 409);
  expect(executed).toHaveLength(1);
  expect(executed.length + replayed.length + inFlight.length).toBe(20);
  const token = (await executed[0]!.json()).TOKEN_RESERVA_P;
  for (const response of replayed) expect((await response.json()).TOKEN_RESERVA_P).toBe(token);
  for (const response of inFlight) {
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.headers.get('retry-after')).toBe('1');
    expect((await response.json()).type).toContain('idempotency-in-flight');
  }
  test
    .info()
    .annotations.push({ type: 'distribution', description: `executed 1, replayed ${replayed.length}, in flight ${inFlight.length}` });
  expect(await reservesOf(nrSeqAgenda)).toHaveLength(1);

  // Once the first has finished, every duplicate gets its answer.
  const later = await post(request, key, body);
  expect(later.headers()['idempotency-replayed']).toBe('true');
  expect((await later.json()).TOKEN_RESERVA_P).toBe(token);
});

test('a key in flight on another instance answers 409; once abandoned, a retry takes it over and runs', async ({ request }) => {
  const key = newKey('in-flight');
  const nrSeqAgenda = slotOf(911, 10);
  const body = reservationBody({ nrSeqAgenda, cdPessoaFisica: 911010 });
  // The row as the server writes it: its owner key, and the SHA-256 of the canonical body (key.ts).
  const requestHash = createHash('sha256').update(canonicalJson(body)).digest('hex');
  await holdIdempotencyKey({ owner: OWNER_A, key, requestHash, createdAt: Date.now() });

  const busy = await post(request, key, body);
  expect(busy.status()).toBe(409);
  expect(busy.headers()['retry-after']).toBe('1');
  expect((await busy.json()).type).toContain('idempotency-in-flight');
  // A different body under that key is still a different request.
  expect((await post(request, key, { ...body, nrMinDuracao: 60 })).status()).toBe(422);
  expect(await reservesOf(nrSeqAgenda)).toHaveLength(0);

  // The holder died mid-flight: past the in-flight timeout the key is taken over and the procedure runs.
  await ageIdempotencyKey(OWNER_A, key, Date.now() - IN_FLIGHT_TIMEOUT_MS - 1000);
  const recovered = await post(request, key, body);
  expect(recovered.status()).toBe(200);
  expect(recovered.headers()['idempotency-replayed']).toBeUndefined();
  expect((await recovered.json()).CODIGO_P).toBe('0');
  expect((await post(request, key, body)).headers()['idempotency-replayed']).toBe('true');
  expect(await reservesOf(nrSeqAgenda)).toHaveLength(1);
});

test('keys are scoped to the caller', async ({ request }) => {
  const key = newKey('scoped');
  const body = reservationBody({ nrSeqAgenda: slotOf(912, 0), cdPessoaFisica: 912001 });
  expect((await post(request, key, body)).status()).toBe(200);
  const otherClient = bearer(await tokenFor(request, TENANT_B));
  const theirs = await post(request, key, body, RESERVE_PATH, otherClient);
  // Not a replay of tenant A's reservation: tenant B's own request ran and found the slot taken.
  expect(theirs.status()).toBe(409);
  expect(theirs.headers()['idempotency-replayed']).toBeUndefined();
  expect((await theirs.json()).CODIGO_P).toBe('2');
});

test('a stored 409 is replayed even after the slot frees up; a release is idempotent too', async ({ request }) => {
  const nrSeqAgenda = slotOf(912, 5);
  const holder = reservationBody({ nrSeqAgenda, cdPessoaFisica: 912010 });
  const { TOKEN_RESERVA_P } = await (await request.post(RESERVE_PATH, { headers: auth, data: holder })).json();

  const key = newKey('stored-409');
  const contender = { ...holder, cdPessoaFisica: 912011 };
  expect((await post(request, key, contender)).status()).toBe(409);

  const releaseKey = newKey('release');
  const release = { ...holder, ieOpcao: 'CR', tokenReservaCanc: TOKEN_RESERVA_P };
  const released = await post(request, releaseKey, release);
  expect((await released.json()).CODIGO_P).toBe('1');
  const releasedAgain = await post(request, releaseKey, release);
  expect(releasedAgain.headers()['idempotency-replayed']).toBe('true');
  expect((await releasedAgain.json()).CODIGO_P).toBe('1'); // not 4: the release did not run twice
  expect(await auditRows(`slot:${nrSeqAgenda}`, 'slot.release')).toHaveLength(1);

  const replayed = await post(request, key, contender);
  expect(replayed.status()).toBe(409);
  expect(replayed.headers()['idempotency-replayed']).toBe('true');
  expect((await replayed.json()).CODIGO_P).toBe('2');
});

test('a 400 is not stored: the caller fixes the body and retries under the same key', async ({ request }) => {
  const key = newKey('fixable');
  const body = reservationBody({ nrSeqAgenda: slotOf(913, 0), cdPessoaFisica: 913001 });
  const bad = await post(request, key, { ...body, nmUsuario: ' com espaços ' });
  expect(bad.status()).toBe(400);
  const fixed = await post(request, key, body);
  expect(fixed.status()).toBe(200);
  expect(fixed.headers()['idempotency-replayed']).toBeUndefined();
  expect((await fixed.json()).CODIGO_P).toBe('0');
});

test('keys outside 1–255 visible ASCII characters are refused with 400 naming the header', async ({ request }) => {
  const body = reservationBody({ nrSeqAgenda: slotOf(913, 10), cdPessoaFisica: 913002 });
  for (const key of ['', 'x'.repeat(256), 'com espaço', 'a\tb']) {
    const response = await post(request, key, body);
    expect(response.status(), JSON.stringify(key)).toBe(400);
    expect((await response.json()).errors).toEqual([expect.objectContaining({ field: 'Idempotency-Key', code: 'idempotencyKeyInvalid' })]);
  }
  expect((await post(request, 'x'.repeat(255), body)).status()).toBe(200);
});
