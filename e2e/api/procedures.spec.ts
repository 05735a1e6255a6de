import { expect, test } from '@playwright/test';
import { bearer, reservationBody, RESERVE_PATH, tokenFor } from '../support/api';
import { staffSessionCookie } from '../support/server-db';
import { PROCEDURES, STAFF, slotOf } from '../support/test-seed';

/** The exam listing the console's form chooses nrSeqProcInterno from (embedded scheduler). */
const PROCEDURES_PATH = '/api/v1/agendamentos/procedimentos';

test('lists the seeded exams by name, in the back-end’s naming, with duration and laterality', async ({ request }) => {
  const response = await request.get(PROCEDURES_PATH, { headers: bearer(await tokenFor(request)) });
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/json');
  expect(await response.json()).toEqual([
    { NR_SEQ_PROC_INTERNO: PROCEDURES.raioX, DS_PROCEDIMENTO: 'Raio-X', NR_MIN_DURACAO: 20, IE_LADO_OBRIGATORIO: 'N' },
    {
      NR_SEQ_PROC_INTERNO: PROCEDURES.ressonanciaJoelho,
      DS_PROCEDIMENTO: 'Ressonância de joelho',
      NR_MIN_DURACAO: 40,
      IE_LADO_OBRIGATORIO: 'S',
    },
    { NR_SEQ_PROC_INTERNO: PROCEDURES.ultrassom, DS_PROCEDIMENTO: 'Ultrassonografia', NR_MIN_DURACAO: 30, IE_LADO_OBRIGATORIO: 'N' },
  ]);
});

test('an exam listed with IE_LADO_OBRIGATORIO = S is refused without ieLado (400 sideRequired)', async ({ request }) => {
  const auth = bearer(await tokenFor(request));
  const listed = (await (await request.get(PROCEDURES_PATH, { headers: auth })).json()) as {
    NR_SEQ_PROC_INTERNO: number;
    IE_LADO_OBRIGATORIO: string;
  }[];
  const needsSide = listed.find((procedure) => procedure.IE_LADO_OBRIGATORIO === 'S');
  expect(needsSide?.NR_SEQ_PROC_INTERNO).toBe(PROCEDURES.ressonanciaJoelho);
  const response = await request.post(RESERVE_PATH, {
    headers: auth,
    data: reservationBody({ nrSeqAgenda: slotOf(919, 0), nrSeqProcInterno: needsSide?.NR_SEQ_PROC_INTERNO, cdPessoaFisica: 919001 }),
  });
  expect(response.status()).toBe(400);
  expect((await response.json()).errors).toEqual([expect.objectContaining({ field: 'ieLado', code: 'sideRequired' })]);
});

test('needs the scheduling capability: 401 without credentials, 403 for the webhooks role', async ({ request }) => {
  expect((await request.get(PROCEDURES_PATH)).status()).toBe(401);
  const forbidden = await request.get(PROCEDURES_PATH, { headers: { cookie: await staffSessionCookie(STAFF.webhooks.email) } });
  expect(forbidden.status()).toBe(403);
  expect(forbidden.headers()['content-type']).toContain('application/problem+json');
  const staff = await request.get(PROCEDURES_PATH, { headers: { cookie: await staffSessionCookie(STAFF.scheduling.email) } });
  expect(staff.status()).toBe(200);
});
