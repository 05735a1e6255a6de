// The bench's seed (SEED_FILE): one API client for the load, one admin for the console pages, one
// webhook configuration to PUT, one exam without laterality and 64 agendas × 48 half-hour slots
// from tomorrow, so every connection has slots of its own that never overlap another's.
export const BENCH_CLIENT = {
  clientId: 'bench',
  clientSecret: 'segredo-do-bench-2026-0123456789',
  name: 'Bench',
  usuarioId: '99999999-9999-4999-8999-999999999999',
  sistemaOrigem: 1,
  scopes: ['webhooks', 'scheduling'],
};
export const BENCH_STAFF = { email: 'bench@exemplo.com.br', password: 'Bench#2026-benchmark', name: 'Bench Admin', roles: ['admin'] };
export const WEBHOOK_ID = '99999999-0001-4000-8000-000000000001';

export function buildSeed(now = new Date()) {
  const tomorrow = new Date(now);
  tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
  tomorrow.setUTCHours(10, 0, 0, 0);
  const slots = [];
  for (let agenda = 0; agenda < 64; agenda++) {
    for (let i = 0; i < 48; i++) {
      slots.push({
        nrSeqAgenda: 500_000 + agenda * 100 + i,
        cdAgenda: 9000 + agenda,
        start: new Date(tomorrow.getTime() + i * 30 * 60_000).toISOString(),
        minutes: 30,
      });
    }
  }
  return {
    staff: [BENCH_STAFF],
    apiClients: [BENCH_CLIENT],
    webhookConfigs: [
      {
        id: WEBHOOK_ID,
        usuarioId: BENCH_CLIENT.usuarioId,
        sistemaOrigem: 1,
        clientId: BENCH_CLIENT.clientId,
        url: 'https://receptor.exemplo.com.br/webhook',
        headers: [{ chave: 'X-Origem', valor: 'bench' }],
      },
    ],
    procedures: [{ nrSeqProcInterno: 90001, description: 'Ultrassonografia (bench)', defaultMinutes: 30, requiresSide: false }],
    slots,
  };
}
