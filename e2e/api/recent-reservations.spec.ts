import { expect, test } from '@playwright/test';
import { staffSessionCookie } from '../support/server-db';
import { bearer, reservationBody, RESERVE_PATH, tokenFor } from '../support/api';
import { slotOf, STAFF, TENANT_A, TENANT_B } from '../support/test-seed';

/** GET /api/v1/agendamentos/reservas-recentes through the real server (slot 20 of agenda 914; the audit spec uses 0 and 10). */
const RECENT = '/api/v1/agendamentos/reservas-recentes?limite=200';

test('a client’s reservation released by a staff user shows as released in the client’s own list', async ({ request, baseURL }) => {
  const clientA = bearer(await tokenFor(request, TENANT_A));
  const body = reservationBody({ nrSeqAgenda: slotOf(914, 20), cdPessoaFisica: 914_020_001 });
  const reserved = await request.post(RESERVE_PATH, { headers: clientA, data: body });
  expect(reserved.status()).toBe(200);
  const token: string = (await reserved.json()).TOKEN_RESERVA_P;

  const mine = async () =>
    (
      (await (await request.get(RECENT, { headers: clientA })).json()) as { token: string; state: string; releasedAt: string | null }[]
    ).find((r) => r.token === token);
  expect(await mine()).toMatchObject({ state: 'active', releasedAt: null });

  // Staff release it from the console (session cookie, same origin).
  const staff = { Cookie: await staffSessionCookie(STAFF.scheduling.email), Origin: baseURL ?? '' };
  const released = await request.post(RESERVE_PATH, { headers: staff, data: { ...body, ieOpcao: 'CR', tokenReservaCanc: token } });
  expect((await released.json()).CODIGO_P).toBe('1');

  expect(await mine()).toMatchObject({ state: 'released', releasedAt: expect.any(String) });
  // Still scoped: another client does not see the reservation at all.
  const clientB = bearer(await tokenFor(request, TENANT_B));
  const theirs = (await (await request.get(RECENT, { headers: clientB })).json()) as { token: string }[];
  expect(theirs.some((r) => r.token === token)).toBe(false);
});
