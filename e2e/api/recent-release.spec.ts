import { expect, test } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { auditRows, expireHold, reservationLogRow, staffSessionCookie } from '../support/server-db';
import { bearer, reservationBody, RESERVE_PATH, tokenFor } from '../support/api';
import { slotOf, STAFF, TENANT_A, TENANT_B } from '../support/test-seed';

/**
 * The one-click release of a recent reservation (issue 47), through the real server: a reservation
 * staff make keeps its patient identifiers sealed until it is released (or lapses), and
 * POST …/reservas-recentes/{token}/liberacao releases it with them. Agenda 940, slots 10–19.
 */
const RECENT = '/api/v1/agendamentos/reservas-recentes?limite=200';
const releasePath = (token: string) => apiPath(routes.releaseRecentReservation, { token });
const CD_PESSOA_FISICA = 940_010_777;
const CD_USUARIO_CONVENIO = '0077665544332';

test('staff release their reservation in one step; the sealed identifiers go with the release, and none reach the trail', async ({
  request,
  baseURL,
}) => {
  const staff = { Cookie: await staffSessionCookie(STAFF.scheduling.email), Origin: baseURL ?? '' };
  const nrSeqAgenda = slotOf(940, 10);
  const body = reservationBody({ nrSeqAgenda, cdPessoaFisica: CD_PESSOA_FISICA, cdUsuarioConvenio: CD_USUARIO_CONVENIO });
  const reserved = await request.post(RESERVE_PATH, { headers: staff, data: body });
  expect(reserved.status()).toBe(200);
  const token: string = (await reserved.json()).TOKEN_RESERVA_P;

  const listed = ((await (await request.get(RECENT, { headers: staff })).json()) as { token: string; liberacaoDireta: boolean }[]).find(
    (r) => r.token === token,
  );
  expect(listed).toMatchObject({ liberacaoDireta: true });
  // Kept sealed, never in clear.
  const stored = await reservationLogRow(token);
  expect(stored?.release_sealed).toEqual(expect.stringMatching(/^v2:/));
  expect(JSON.stringify(stored)).not.toContain(String(CD_PESSOA_FISICA));
  expect(JSON.stringify(stored)).not.toContain(CD_USUARIO_CONVENIO);

  const released = await request.post(releasePath(token), { headers: staff });
  expect(released.status()).toBe(200);
  expect(await released.json()).toMatchObject({ CODIGO_P: '1', IE_RESERVADO_P: 'N' });
  expect(await reservationLogRow(token)).toMatchObject({ state: 'released', release_sealed: null });
  // The slot is free again: anyone may reserve it.
  const again = await request.post(RESERVE_PATH, { headers: bearer(await tokenFor(request, TENANT_A)), data: body });
  expect((await again.json()).CODIGO_P).toBe('0');

  // A second click has nothing left to release.
  const twice = await request.post(releasePath(token), { headers: staff });
  expect(twice.status()).toBe(409);
  expect(twice.headers()['content-type']).toContain('application/problem+json');
  expect((await twice.json()).type).toContain('reservation-released');

  const trail = await auditRows(`slot:${nrSeqAgenda}`);
  expect(trail.map((row) => [row.actor_kind, row.action, row.outcome])).toEqual([
    ['staff', 'slot.reserve', 'CODIGO_P=0'],
    ['staff', 'slot.release', 'CODIGO_P=1'],
    ['api-client', 'slot.reserve', 'CODIGO_P=0'],
  ]);
  for (const row of trail) {
    expect(row.after_json).not.toContain(String(CD_PESSOA_FISICA).slice(0, 6));
    expect(row.after_json).not.toContain(CD_USUARIO_CONVENIO.slice(0, 9));
  }
});

test('a lapsed hold, an API client’s reservation and another tenant’s token are not released this way', async ({ request, baseURL }) => {
  const staff = { Cookie: await staffSessionCookie(STAFF.scheduling.email), Origin: baseURL ?? '' };
  const clientA = bearer(await tokenFor(request, TENANT_A));
  const clientB = bearer(await tokenFor(request, TENANT_B));

  // Staff's hold that lapsed: 409, and the identifiers no longer needed are swept (the retention sweep).
  const lapsing = await request.post(RESERVE_PATH, {
    headers: staff,
    data: reservationBody({ nrSeqAgenda: slotOf(940, 12), cdPessoaFisica: 940_012_001 }),
  });
  const lapsedToken: string = (await lapsing.json()).TOKEN_RESERVA_P;
  await expireHold(lapsedToken);
  const lapsed = await request.post(releasePath(lapsedToken), { headers: staff });
  expect(lapsed.status()).toBe(409);
  expect((await lapsed.json()).type).toContain('reservation-expired');

  // An API client's reservation keeps no identifiers: staff see it, but must send the release themselves.
  const body = reservationBody({ nrSeqAgenda: slotOf(940, 14), cdPessoaFisica: 940_014_001 });
  const token: string = (await (await request.post(RESERVE_PATH, { headers: clientA, data: body })).json()).TOKEN_RESERVA_P;
  expect(await reservationLogRow(token)).toMatchObject({ release_sealed: null });
  const notKept = await request.post(releasePath(token), { headers: staff });
  expect(notKept.status()).toBe(409);
  expect((await notKept.json()).type).toContain('release-identifiers-not-kept');
  // Another tenant does not even learn that the token exists.
  expect((await request.post(releasePath(token), { headers: clientB })).status()).toBe(404);
  expect((await request.post(releasePath('TOKEN-DESCONHECIDO'), { headers: staff })).status()).toBe(404);

  const released = await request.post(RESERVE_PATH, { headers: clientA, data: { ...body, ieOpcao: 'CR', tokenReservaCanc: token } });
  expect((await released.json()).CODIGO_P).toBe('1');
});
