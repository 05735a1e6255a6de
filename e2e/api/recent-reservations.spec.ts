import { expect, test, type APIRequestContext } from '@playwright/test';
import { expireHold, staffSessionCookie } from '../support/server-db';
import { bearer, reservationBody, RESERVE_PATH, tokenFor } from '../support/api';
import { slotOf, STAFF, TENANT_A, TENANT_B } from '../support/test-seed';

/**
 * GET /api/v1/agendamentos/reservas-recentes through the real server (slot 20 of agenda 914; the
 * audit spec uses 0 and 10). Agenda 937 is for the ownership and expiry specs below.
 */
const RECENT = '/api/v1/agendamentos/reservas-recentes?limite=200';

test('a client’s reservation released by a staff user shows as released in the client’s own list', async ({ request, baseURL }) => {
  const clientA = bearer(await tokenFor(request, TENANT_A));
  const body = reservationBody({ nrSeqAgenda: slotOf(914, 20), cdPessoaFisica: 914_020_001 });
  const reserved = await request.post(RESERVE_PATH, { headers: clientA, data: body });
  expect(reserved.status()).toBe(200);
  const token: string = (await reserved.json()).TOKEN_RESERVA_P;

  const mine = async () =>
    (
      (await (await request.get(RECENT, { headers: clientA })).json()) as { token: string; estado: string; liberadaEm: string | null }[]
    ).find((r) => r.token === token);
  expect(await mine()).toMatchObject({ estado: 'active', liberadaEm: null });

  // Staff release it from the console (session cookie, same origin).
  const staff = { Cookie: await staffSessionCookie(STAFF.scheduling.email), Origin: baseURL ?? '' };
  const released = await request.post(RESERVE_PATH, { headers: staff, data: { ...body, ieOpcao: 'CR', tokenReservaCanc: token } });
  expect((await released.json()).CODIGO_P).toBe('1');

  expect(await mine()).toMatchObject({ estado: 'released', liberadaEm: expect.any(String) });
  // Still scoped: another client does not see the reservation at all.
  const clientB = bearer(await tokenFor(request, TENANT_B));
  const theirs = (await (await request.get(RECENT, { headers: clientB })).json()) as { token: string }[];
  expect(theirs.some((r) => r.token === token)).toBe(false);
});

type Listed = { token: string; estado: string; expiraEm: string | null; cdPessoaFisica: string | null };
const listedBy = async (request: APIRequestContext, headers: Record<string, string>) =>
  (await (await request.get(RECENT, { headers })).json()) as Listed[];

test('client A cannot release client B’s reservation with B’s token: 409 CODIGO_P 4, as for a wrong token', async ({ request }) => {
  const clientA = bearer(await tokenFor(request, TENANT_A));
  const clientB = bearer(await tokenFor(request, TENANT_B));
  const body = reservationBody({ nrSeqAgenda: slotOf(937, 0), cdPessoaFisica: 937_001 });
  const token: string = (await (await request.post(RESERVE_PATH, { headers: clientB, data: body })).json()).TOKEN_RESERVA_P;

  const attack = { ...body, ieOpcao: 'CR', tokenReservaCanc: token, cdPessoaFisica: 937_999, nmUsuario: 'outro-usuario' };
  const stolen = await request.post(RESERVE_PATH, { headers: clientA, data: attack });
  const wrongToken = await request.post(RESERVE_PATH, { headers: clientA, data: { ...attack, tokenReservaCanc: 'TOKEN-ERRADO' } });
  expect(stolen.status()).toBe(409);
  expect(await stolen.json()).toEqual(await wrongToken.json());
  expect((await stolen.json()).CODIGO_P).toBe('4');

  expect((await listedBy(request, clientB)).find((r) => r.token === token)).toMatchObject({ estado: 'active' });
  expect((await listedBy(request, clientA)).some((r) => r.token === token)).toBe(false);
  const released = await request.post(RESERVE_PATH, { headers: clientB, data: { ...body, ieOpcao: 'CR', tokenReservaCanc: token } });
  expect((await released.json()).CODIGO_P).toBe('1');
});

test('a hold expires after RESERVATION_HOLD_MINUTES (30 by default): slot and rule 5 freed, release answers 4', async ({ request }) => {
  const clientA = bearer(await tokenFor(request, TENANT_A));
  const body = reservationBody({ nrSeqAgenda: slotOf(937, 4), cdPessoaFisica: 937_004, nrMinDuracao: 60 });
  const before = Date.now();
  const token: string = (await (await request.post(RESERVE_PATH, { headers: clientA, data: body })).json()).TOKEN_RESERVA_P;
  const held = (await listedBy(request, clientA)).find((r) => r.token === token);
  expect(held).toMatchObject({ estado: 'active', cdPessoaFisica: '•••004' });
  const expiresAt = Date.parse(held?.expiraEm ?? '');
  expect(expiresAt - before).toBeGreaterThanOrEqual(30 * 60_000 - 1000);
  expect(expiresAt - before).toBeLessThanOrEqual(30 * 60_000 + 60_000);
  // Still held: the covered next slot is taken and the beneficiary has the exam booked (5).
  const next = reservationBody({ nrSeqAgenda: slotOf(937, 5), cdPessoaFisica: 937_005 });
  expect((await (await request.post(RESERVE_PATH, { headers: clientA, data: next })).json()).CODIGO_P).toBe('2');

  await expireHold(token);
  expect((await listedBy(request, clientA)).find((r) => r.token === token)).toMatchObject({ estado: 'expired' });
  const release = await request.post(RESERVE_PATH, { headers: clientA, data: { ...body, ieOpcao: 'CR', tokenReservaCanc: token } });
  expect(release.status()).toBe(409);
  expect((await release.json()).CODIGO_P).toBe('4');
  expect((await (await request.post(RESERVE_PATH, { headers: clientA, data: next })).json()).CODIGO_P).toBe('0');
  const again = reservationBody({ nrSeqAgenda: slotOf(937, 8), cdPessoaFisica: 937_004 });
  expect((await (await request.post(RESERVE_PATH, { headers: clientA, data: again })).json()).CODIGO_P).toBe('0');
});
