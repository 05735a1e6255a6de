import { expect, test } from '@playwright/test';
import { bearer, reservationBody, RESERVE_PATH, RESERVE_SAMPLE_PATH, tokenFor } from '../support/api';
import { PAST_SLOT, PROCEDURES, slotOf } from '../support/test-seed';

/** Every row of the contract's §3.1 and §7.2 tables through the real route and scheduler. */
test.describe('slot reservation (§3.1, §7.2)', () => {
  let auth: Record<string, string>;
  test.beforeAll(async ({ request }) => {
    auth = bearer(await tokenFor(request));
  });

  test('reserve (0), taken (2), release (1), release again (4)', async ({ request }) => {
    const body = reservationBody({ nrSeqAgenda: slotOf(901, 0), cdPessoaFisica: 901001 });
    const reserved = await request.post(RESERVE_PATH, { headers: auth, data: body });
    expect(reserved.status()).toBe(200);
    const reservation = await reserved.json();
    expect(reservation).toEqual({
      IE_RESERVADO_P: 'S',
      TOKEN_RESERVA_P: expect.stringMatching(/^[A-Z0-9]{1,32}$/),
      CODIGO_P: '0',
      MENSAGEM_P: expect.stringMatching(/reservado/i),
    });

    const again = await request.post(RESERVE_PATH, { headers: auth, data: { ...body, cdPessoaFisica: 901002 } });
    expect(again.status()).toBe(409);
    expect(await again.json()).toMatchObject({ IE_RESERVADO_P: 'N', TOKEN_RESERVA_P: '', CODIGO_P: '2' });

    const release = { ...body, ieOpcao: 'CR', tokenReservaCanc: reservation.TOKEN_RESERVA_P };
    const released = await request.post(RESERVE_PATH, { headers: auth, data: release });
    expect(released.status()).toBe(200);
    expect(await released.json()).toMatchObject({ IE_RESERVADO_P: 'N', TOKEN_RESERVA_P: '', CODIGO_P: '1' });

    const secondRelease = await request.post(RESERVE_PATH, { headers: auth, data: release });
    expect(secondRelease.status()).toBe(409);
    expect(await secondRelease.json()).toMatchObject({ CODIGO_P: '4', TOKEN_RESERVA_P: '' });
  });

  test('the sample path shape behaves exactly like the endpoint', async ({ request }) => {
    const body = reservationBody({ nrSeqAgenda: slotOf(902, 0), cdPessoaFisica: 902001 });
    const reserved = await request.post(RESERVE_SAMPLE_PATH, { headers: auth, data: body });
    expect(reserved.status()).toBe(200);
    const { TOKEN_RESERVA_P } = await reserved.json();
    const taken = await request.post(RESERVE_SAMPLE_PATH, { headers: auth, data: { ...body, cdPessoaFisica: 902002 } });
    expect((await taken.json()).CODIGO_P).toBe('2');
    const released = await request.post(RESERVE_SAMPLE_PATH, {
      headers: auth,
      data: { ...body, ieOpcao: 'CR', tokenReservaCanc: TOKEN_RESERVA_P },
    });
    expect((await released.json()).CODIGO_P).toBe('1');
  });

  test('unknown slot answers 404 with CODIGO_P 3, for R and for CR', async ({ request }) => {
    for (const extra of [{}, { ieOpcao: 'CR', tokenReservaCanc: 'ABC' }]) {
      const response = await request.post(RESERVE_PATH, { headers: auth, data: reservationBody({ nrSeqAgenda: 987654321, ...extra }) });
      expect(response.status()).toBe(404);
      expect(await response.json()).toMatchObject({ CODIGO_P: '3', IE_RESERVADO_P: 'N', TOKEN_RESERVA_P: '' });
    }
  });

  test('nrMinDuracao is bounded: 4 × the exam’s usual 30 minutes, never over 480; longer is 400 naming it', async ({ request }) => {
    for (const nrMinDuracao of [121, 481, 1440]) {
      const body = reservationBody({ nrSeqAgenda: slotOf(907, 10), cdPessoaFisica: 907_010, nrMinDuracao });
      const response = await request.post(RESERVE_PATH, { headers: auth, data: body });
      expect(response.status()).toBe(400);
      expect(response.headers()['content-type']).toContain('application/problem+json');
      expect((await response.json()).errors).toEqual([expect.objectContaining({ field: 'nrMinDuracao' })]);
    }
    const longest = reservationBody({ nrSeqAgenda: slotOf(907, 10), cdPessoaFisica: 907_010, nrMinDuracao: 120 });
    expect((await (await request.post(RESERVE_PATH, { headers: auth, data: longest })).json()).CODIGO_P).toBe('0');
  });

  test('a slot in the past is no longer available (2)', async ({ request }) => {
    const response = await request.post(RESERVE_PATH, { headers: auth, data: reservationBody({ nrSeqAgenda: PAST_SLOT }) });
    expect(response.status()).toBe(409);
    expect((await response.json()).CODIGO_P).toBe('2');
  });

  test('a release with a wrong token cannot cancel (4) and keeps the reservation', async ({ request }) => {
    const body = reservationBody({ nrSeqAgenda: slotOf(903, 0), cdPessoaFisica: 903001 });
    const { TOKEN_RESERVA_P } = await (await request.post(RESERVE_PATH, { headers: auth, data: body })).json();
    const wrong = await request.post(RESERVE_PATH, { headers: auth, data: { ...body, ieOpcao: 'CR', tokenReservaCanc: 'F'.repeat(32) } });
    expect(wrong.status()).toBe(409);
    expect((await wrong.json()).CODIGO_P).toBe('4');
    const stillTaken = await request.post(RESERVE_PATH, { headers: auth, data: { ...body, cdPessoaFisica: 903002 } });
    expect((await stillTaken.json()).CODIGO_P).toBe('2');
    const right = await request.post(RESERVE_PATH, { headers: auth, data: { ...body, ieOpcao: 'CR', tokenReservaCanc: TOKEN_RESERVA_P } });
    expect((await right.json()).CODIGO_P).toBe('1');
  });

  test('the same beneficiary cannot hold two reservations for one exam (5)', async ({ request }) => {
    const first = reservationBody({ nrSeqAgenda: slotOf(904, 0), cdPessoaFisica: 904001, nrSeqProcInterno: PROCEDURES.raioX });
    expect((await (await request.post(RESERVE_PATH, { headers: auth, data: first })).json()).CODIGO_P).toBe('0');
    const second = await request.post(RESERVE_PATH, { headers: auth, data: { ...first, nrSeqAgenda: slotOf(904, 5) } });
    expect(second.status()).toBe(409);
    expect((await second.json()).CODIGO_P).toBe('5');
  });

  test('a reservation longer than the slot blocks the overlapping slots of its agenda', async ({ request }) => {
    // 90 minutes from slot 0 covers slots 0, 1 and 2 (30 minutes each); slot 3 stays free.
    const body = reservationBody({ nrSeqAgenda: slotOf(905, 0), cdPessoaFisica: 905001, nrMinDuracao: 90 });
    const { TOKEN_RESERVA_P } = await (await request.post(RESERVE_PATH, { headers: auth, data: body })).json();
    const free = await (await request.get('/api/v1/agendamentos/slots-livres?cdAgenda=905', { headers: auth })).json();
    const freeNumbers = free.map((slot: { NR_SEQ_AGENDA: number }) => slot.NR_SEQ_AGENDA);
    expect(freeNumbers).not.toContain(slotOf(905, 1));
    expect(freeNumbers).not.toContain(slotOf(905, 2));
    expect(freeNumbers).toContain(slotOf(905, 3));
    const overlap = await request.post(RESERVE_PATH, {
      headers: auth,
      data: { ...body, nrSeqAgenda: slotOf(905, 2), cdPessoaFisica: 905002, nrMinDuracao: 30 },
    });
    expect((await overlap.json()).CODIGO_P).toBe('2');

    await request.post(RESERVE_PATH, { headers: auth, data: { ...body, ieOpcao: 'CR', tokenReservaCanc: TOKEN_RESERVA_P } });
    const afterRelease = await request.post(RESERVE_PATH, {
      headers: auth,
      data: { ...body, nrSeqAgenda: slotOf(905, 2), cdPessoaFisica: 905002, nrMinDuracao: 30 },
    });
    expect((await afterRelease.json()).CODIGO_P).toBe('0');
  });

  test('an exam that requires laterality refuses a reservation without ieLado (400 on ieLado)', async ({ request }) => {
    const body = reservationBody({
      nrSeqAgenda: slotOf(906, 0),
      cdPessoaFisica: 906001,
      nrSeqProcInterno: PROCEDURES.ressonanciaJoelho,
      nrMinDuracao: 40,
    });
    const missing = await request.post(RESERVE_PATH, { headers: auth, data: body });
    expect(missing.status()).toBe(400);
    expect(missing.headers()['content-type']).toContain('application/problem+json');
    expect((await missing.json()).errors).toEqual([expect.objectContaining({ field: 'ieLado', code: 'sideRequired' })]);
    const withSide = await request.post(RESERVE_PATH, { headers: auth, data: { ...body, ieLado: 'D' } });
    expect((await withSide.json()).CODIGO_P).toBe('0');
  });
});
