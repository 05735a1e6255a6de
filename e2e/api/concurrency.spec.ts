import { expect, test } from '@playwright/test';
import { bearer, reservationBody, RESERVE_PATH, tokenFor } from '../support/api';
import { slotOf } from '../support/test-seed';

/** N simultaneous reservations of one slot: exactly one wins (0), every other one gets 2. */
test('30 simultaneous reservations of one slot → exactly one CODIGO_P 0', async ({ request }) => {
  const auth = bearer(await tokenFor(request));
  const slot = slotOf(908, 3);
  const responses = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      request.post(RESERVE_PATH, { headers: auth, data: reservationBody({ nrSeqAgenda: slot, cdPessoaFisica: 908_100 + i }) }),
    ),
  );
  const bodies = await Promise.all(responses.map((response) => response.json()));
  const codes = bodies.map((body) => body.CODIGO_P);
  expect(codes.filter((code) => code === '0')).toHaveLength(1);
  expect(codes.filter((code) => code === '2')).toHaveLength(29);
  expect(responses.filter((response) => response.status() === 409)).toHaveLength(29);
});

/**
 * Rule 5 under a race the agenda locks cannot see: one beneficiary, one exam, four agendas at once.
 * On PostgreSQL (the second e2e run) these really run in parallel transactions.
 */
test('simultaneous reservations of one exam for one beneficiary on different agendas → one 0, the rest 5', async ({ request }) => {
  const auth = bearer(await tokenFor(request));
  for (let round = 0; round < 3; round++) {
    const patient = 908_500 + round;
    const responses = await Promise.all(
      [908, 909, 906, 905].map((agenda) =>
        request.post(RESERVE_PATH, {
          headers: auth,
          data: reservationBody({
            nrSeqAgenda: slotOf(agenda, 20 + round),
            cdPessoaFisica: patient,
            nrSeqProcInterno: 70003,
            nrMinDuracao: 20,
          }),
        }),
      ),
    );
    const codes = (await Promise.all(responses.map((response) => response.json()))).map((body) => body.CODIGO_P).sort();
    expect(codes).toEqual(['0', '5', '5', '5']);
  }
});
