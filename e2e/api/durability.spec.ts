import { expect, test } from '@playwright/test';
import { freePort, newDataDir, startServer } from '../support/server';
import { reservationBody } from '../support/api';
import { TENANT_A, slotOf } from '../support/test-seed';

/**
 * An answered reservation survives `kill -9` and restart: the embedded database writes with
 * synchronous=FULL before the response leaves. This spec runs its own server on its own DATA_DIR.
 */
test('a reservation answered before kill -9 is still there after restart', async () => {
  const port = await freePort();
  const dataDir = newDataDir('durability');
  const call = async (base: string, path: string, init: RequestInit = {}) => fetch(base + path, init);
  const token = async (base: string) => {
    const response = await call(base, '/api/v1/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: TENANT_A.clientId, client_secret: TENANT_A.clientSecret }),
    });
    return `Bearer ${(await response.json()).access_token}`;
  };
  const reserve = async (base: string, body: object) =>
    call(base, '/api/v1/agendamentos/slots-livres/reservar', {
      method: 'POST',
      headers: { authorization: await token(base), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  const body = reservationBody({ nrSeqAgenda: slotOf(909, 0), cdPessoaFisica: 909001 });
  const first = await startServer({ port, dataDir });
  const reserved = await (await reserve(first.url, body)).json();
  expect(reserved.CODIGO_P).toBe('0');
  await first.stop('SIGKILL');

  const second = await startServer({ port, dataDir });
  try {
    const again = await (await reserve(second.url, { ...body, cdPessoaFisica: 909002 })).json();
    expect(again.CODIGO_P).toBe('2');
    const released = await (await reserve(second.url, { ...body, ieOpcao: 'CR', tokenReservaCanc: reserved.TOKEN_RESERVA_P })).json();
    expect(released.CODIGO_P).toBe('1');
  } finally {
    await second.stop();
  }
});
