import { buildSeed, WEBHOOK_ID } from './seed.mjs';

// The benchmark's request streams (autocannon request lists). Reservations: per connection, reserve a slot of its own, reserve it again (conflict),
// release it; slots of one connection never overlap another's.
export const RESERVE_PATH = '/api/v1/agendamentos/slots-livres/reservar';
// Consecutive cycles go to different agendas, as concurrent callers mostly do: a reservation locks
// its agenda's row (on PostgreSQL and Oracle), so a stream walking one agenda's slots in order
// would measure that one row lock, with every connection queued on it.
export const slots = buildSeed().slots.sort((a, b) => (a.nrSeqAgenda % 100) - (b.nrSeqAgenda % 100) || a.cdAgenda - b.cdAgenda);
export function reservationBody(slot, person, option, tokenReservaCanc) {
  return JSON.stringify({
    nrSeqAgenda: slot.nrSeqAgenda,
    nrSeqProcInterno: 90001,
    nrMinDuracao: slot.minutes,
    ieOpcao: option,
    cdPessoaFisica: person,
    cdConvenio: 12,
    cdCategoria: 1,
    cdPlano: 3,
    cdUsuarioConvenio: '0012345678901',
    nmUsuario: 'bench',
    ...(tokenReservaCanc ? { tokenReservaCanc } : {}),
  });
}
// autocannon keeps a connection's context only through one pass of the request list, so each pass
// (a cycle) takes the next number from a counter of this process: its slot and patient. Slots are
// reused only after every other slot, long after their release.
let cycles = 0;
export function reservationRequests() {
  const slotOf = (context) => slots[context.cycle % slots.length];
  return [
    {
      method: 'POST',
      path: RESERVE_PATH,
      setupRequest: (request, context) => {
        context.cycle = cycles++;
        return { ...request, body: reservationBody(slotOf(context), 700_000 + (context.cycle % 100_000), 'R') };
      },
      onResponse: (status, body, context) => {
        if (status === 200) context.token = JSON.parse(body).TOKEN_RESERVA_P;
      },
    },
    {
      method: 'POST',
      path: RESERVE_PATH,
      setupRequest: (request, context) => ({
        ...request,
        body: reservationBody(slotOf(context), 900_000 + (context.cycle % 100_000), 'R'),
      }),
    },
    {
      method: 'POST',
      path: RESERVE_PATH,
      setupRequest: (request, context) => ({
        ...request,
        body: reservationBody(slotOf(context), 700_000 + (context.cycle % 100_000), 'CR', context.token ?? 'F'.repeat(32)),
      }),
    },
  ];
}

export const webhookRequests = () => [
  {
    method: 'PUT',
    path: `/api/v2/avaliacao-saude/configuracao-web-hook/${WEBHOOK_ID}`,
    setupRequest: (request) => ({
      ...request,
      body: JSON.stringify({ url: 'https://receptor.exemplo.com.br/webhook', eventoAvaliacaoSaudeAprovada: Math.random() < 0.5 }),
    }),
  },
];
