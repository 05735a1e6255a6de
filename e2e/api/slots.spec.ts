import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { staffSessionCookie } from '../support/server-db';
import { bearer, reservationBody, RESERVE_PATH, tokenFor } from '../support/api';
import { AGENDA_COUNT, FIRST_AGENDA, PAST_AGENDA, seedDay, slotOf, STAFF, TENANT_A, TENANT_B } from '../support/test-seed';

/**
 * GET /api/v1/agendamentos/slots (the console calendar's source) through the real server: every
 * slot of a window with its state. Agenda 900 from slot 10 (12:00) on; the metrics spec reserves
 * its slot 0 and nothing else uses the agenda.
 */
const SLOTS = apiPath(routes.listSlots);
const FREE = apiPath(routes.listFreeSlots);
const AGENDAS = apiPath(routes.listAgendas);

/** The seed's slots are two São Paulo days ahead, every 30 minutes from 07:00. */
const day = seedDay();
const at = (time: string) => `${day}T${time}:00-03:00`;
const window = new URLSearchParams({ de: at('12:00'), ate: at('13:30'), cdAgenda: '900' });

type Listed = {
  NR_SEQ_AGENDA: number;
  CD_AGENDA: number;
  DT_AGENDA: string;
  NR_MIN_DURACAO: number;
  situacao: string;
  expiraEm: string | null;
};

async function states(request: APIRequestContext, headers: Record<string, string>) {
  const response = await request.get(`${SLOTS}?${window}`, { headers });
  expect(response.status()).toBe(200);
  return ((await response.json()) as Listed[]).map((slot) => [slot.NR_SEQ_AGENDA, slot.situacao]);
}

test('lists every slot of the window with its state, soonest first; a hold is reservado for its owner and staff, ocupado for others', async ({
  request,
  baseURL,
}) => {
  const clientA = bearer(await tokenFor(request, TENANT_A));
  const clientB = bearer(await tokenFor(request, TENANT_B));
  const staff = { Cookie: await staffSessionCookie(STAFF.scheduling.email), Origin: baseURL ?? '' };

  const before = (await (await request.get(`${SLOTS}?${window}`, { headers: clientA })).json()) as Listed[];
  expect(before[0]).toEqual({
    NR_SEQ_AGENDA: slotOf(900, 10),
    CD_AGENDA: 900,
    DT_AGENDA: at('12:00'),
    NR_MIN_DURACAO: 30,
    situacao: 'livre',
    expiraEm: null,
  });
  expect(before.map((slot) => slot.NR_SEQ_AGENDA)).toEqual([10, 11, 12, 13].map((index) => slotOf(900, index)));

  // An hour from slot 10 holds it and covers slot 11.
  const body = reservationBody({ nrSeqAgenda: slotOf(900, 10), cdPessoaFisica: 900_010_001, nrMinDuracao: 60 });
  const reserved = await request.post(RESERVE_PATH, { headers: clientA, data: body });
  expect((await reserved.json()).CODIGO_P).toBe('0');
  const token: string = (await reserved.json()).TOKEN_RESERVA_P;

  const mine = (await (await request.get(`${SLOTS}?${window}`, { headers: clientA })).json()) as Listed[];
  expect(mine[0]).toMatchObject({ situacao: 'reservado', expiraEm: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
  // RESERVATION_HOLD_MINUTES is 30 by default.
  expect(Date.parse(mine[0]!.expiraEm ?? '') - Date.now()).toBeGreaterThan(25 * 60_000);
  expect(await states(request, clientA)).toEqual([
    [slotOf(900, 10), 'reservado'],
    [slotOf(900, 11), 'ocupado'],
    [slotOf(900, 12), 'livre'],
    [slotOf(900, 13), 'livre'],
  ]);
  expect((await states(request, clientB)).slice(0, 2)).toEqual([
    [slotOf(900, 10), 'ocupado'],
    [slotOf(900, 11), 'ocupado'],
  ]);
  expect((await states(request, staff)).slice(0, 2)).toEqual([
    [slotOf(900, 10), 'reservado'],
    [slotOf(900, 11), 'ocupado'],
  ]);
  // The free listing agrees: what is not livre is not listed.
  const free = (await (await request.get(`${FREE}?${window}`, { headers: clientA })).json()) as Listed[];
  expect(free.map((slot) => slot.NR_SEQ_AGENDA)).toEqual([slotOf(900, 12), slotOf(900, 13)]);

  await request.post(RESERVE_PATH, { headers: clientA, data: { ...body, ieOpcao: 'CR', tokenReservaCanc: token } });
  expect((await states(request, clientB)).every(([, state]) => state === 'livre')).toBe(true);
});

test('the window is required, in order and at most a week; limite at most 2000: 400 naming the parameter', async ({ request }) => {
  const auth = bearer(await tokenFor(request));
  const fields = async (query: Record<string, string>) => {
    const response = await request.get(`${SLOTS}?${new URLSearchParams(query)}`, { headers: auth });
    expect(response.status()).toBe(400);
    expect(response.headers()['content-type']).toContain('application/problem+json');
    return ((await response.json()).errors as { field: string; message: string }[]).map(({ field, message }) => `${field}: ${message}`);
  };
  expect(await fields({})).toEqual(['de: Campo obrigatório.', 'ate: Campo obrigatório.']);
  expect(await fields({ de: at('13:00'), ate: at('12:00') })).toEqual(['ate: Deve ser igual ou posterior a de.']);
  expect(await fields({ de: at('00:00'), ate: `${new Date(Date.parse(at('00:00')) + 8 * 86_400_000).toISOString()}` })).toEqual([
    'ate: O intervalo entre de e ate pode ter no máximo 7 dias.',
  ]);
  expect(await fields({ de: at('00:00'), ate: at('23:59'), limite: '2001' })).toEqual(['limite: Deve ser menor ou igual a 2000.']);
  expect(await fields({ de: 'ontem', ate: at('23:59') })).toHaveLength(1);

  const week = await request.get(`${SLOTS}?${new URLSearchParams({ de: at('00:00'), ate: at('23:59'), limite: '2000' })}`, {
    headers: auth,
  });
  expect(week.status()).toBe(200);
  // Every agenda of the seed has its 24 slots on that day, whatever their state.
  expect(((await week.json()) as Listed[]).filter((slot) => slot.CD_AGENDA === 901)).toHaveLength(24);
});

test('lists the agendas with a slot in the window, by code: those of the window’s slots, for API clients and staff', async ({
  request,
  baseURL,
}) => {
  const auth = bearer(await tokenFor(request));
  const staff = { Cookie: await staffSessionCookie(STAFF.scheduling.email), Origin: baseURL ?? '' };
  const codes = async (query: Record<string, string>, headers: Record<string, string> = auth) => {
    const response = await request.get(`${AGENDAS}?${new URLSearchParams(query)}`, { headers });
    expect(response.status()).toBe(200);
    return ((await response.json()) as { CD_AGENDA: number }[]).map((agenda) => agenda.CD_AGENDA);
  };
  const seeded = Array.from({ length: AGENDA_COUNT }, (_, index) => FIRST_AGENDA + index);
  const day = { de: at('00:00'), ate: at('23:59') };
  expect(await codes(day)).toEqual(seeded);
  expect(await codes(day, staff)).toEqual(seeded);
  // The same agendas as the day's slots, whatever their state.
  const slots = (await (
    await request.get(`${SLOTS}?${new URLSearchParams({ ...day, limite: '2000' })}`, { headers: auth })
  ).json()) as Listed[];
  expect([...new Set(slots.map((slot) => slot.CD_AGENDA))].sort((a, b) => a - b)).toEqual(seeded);
  // The last slots start at 18:30; agenda 999's only slot was yesterday, in the past.
  expect(await codes({ de: at('19:00'), ate: at('23:59') })).toEqual([]);
  expect(await codes({ de: new Date(Date.now() - 86_400_000).toISOString(), ate: at('23:59') })).not.toContain(PAST_AGENDA);

  const refused = await request.get(`${AGENDAS}?${new URLSearchParams({ de: at('13:00'), ate: at('12:00') })}`, { headers: auth });
  expect(refused.status()).toBe(400);
  expect(refused.headers()['content-type']).toContain('application/problem+json');
  expect((await refused.json()).errors).toEqual([expect.objectContaining({ field: 'ate', message: 'Deve ser igual ou posterior a de.' })]);
  expect((await request.get(`${AGENDAS}?${new URLSearchParams(day)}`)).status()).toBe(401);
});

test('needs a token', async ({ request }) => {
  const response = await request.get(`${SLOTS}?${window}`);
  expect(response.status()).toBe(401);
});
