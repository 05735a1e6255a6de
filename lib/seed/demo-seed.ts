import type { SeedInput } from './seed-format';

/**
 * The built-in pt-BR demo data, seeded only when SEED_DEMO asks for it (the README's start command
 * does; never `npm start` or the container image alone) on the embedded default. Slots cover
 * the coming DAYS_AHEAD days (São Paulo time) and are topped up on every start (topUpDemoSlots),
 * so the demo always has free slots to reserve, however long ago its database was created.
 * The credentials are public demo values printed in the README, never for production.
 */
const SAO_PAULO_OFFSET = '-03:00';
const DAYS_AHEAD = 14;

const agendas = [
  { cdAgenda: 101, procedures: [50101], minutes: 40, open: 7, close: 17 },
  { cdAgenda: 102, procedures: [50102, 50104], minutes: 30, open: 8, close: 18 },
  { cdAgenda: 103, procedures: [50103], minutes: 20, open: 7, close: 12 },
];

function saoPauloDate(now: Date, daysAhead: number): string {
  const local = new Date(now.getTime() - 3 * 3600_000 + daysAhead * 86_400_000);
  return local.toISOString().slice(0, 10);
}

/** Days since 2026-01-01: part of a slot's number, so the same slot gets the same number on every start. */
function dayNumber(date: string): number {
  return Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse('2026-01-01T00:00:00Z')) / 86_400_000);
}

/** The demo's slots from tomorrow to DAYS_AHEAD days ahead of `now`, numbered by agenda, day and time. */
export function demoSlots(now: Date): NonNullable<SeedInput['slots']> {
  const slots: NonNullable<SeedInput['slots']> = [];
  for (const agenda of agendas) {
    for (let day = 1; day <= DAYS_AHEAD; day++) {
      const date = saoPauloDate(now, day);
      const weekday = new Date(`${date}T12:00:00${SAO_PAULO_OFFSET}`).getUTCDay();
      if (weekday === 0) continue; // closed on Sundays
      let index = 0;
      for (let minute = agenda.open * 60; minute + agenda.minutes <= agenda.close * 60; minute += agenda.minutes) {
        const hh = String(Math.floor(minute / 60)).padStart(2, '0');
        const mm = String(minute % 60).padStart(2, '0');
        slots.push({
          // e.g. 102_032_505: agenda 102, day 325, sixth slot of the day.
          nrSeqAgenda: agenda.cdAgenda * 1_000_000 + dayNumber(date) * 100 + ++index,
          cdAgenda: agenda.cdAgenda,
          start: `${date}T${hh}:${mm}:00${SAO_PAULO_OFFSET}`,
          minutes: agenda.minutes,
        });
      }
    }
  }
  return slots;
}

export function demoSeed(now = new Date()): SeedInput {
  return {
    staff: [
      { email: 'admin@clinica.exemplo.com.br', name: 'Ana Souza', password: 'Admin#2026', roles: ['admin'] },
      { email: 'webhooks@clinica.exemplo.com.br', name: 'Bruno Lima', password: 'Webhooks#2026', roles: ['webhooks'] },
      { email: 'agenda@clinica.exemplo.com.br', name: 'Carla Mendes', password: 'Agenda#2026', roles: ['scheduling'] },
    ],
    apiClients: [
      {
        clientId: 'portal-parceiro',
        clientSecret: 'segredo-demo-portal-2026',
        name: 'Portal do Parceiro',
        usuarioId: '7d4f1c2a-3b5e-4c6d-8e9f-0a1b2c3d4e5f',
        sistemaOrigem: 3,
      },
      {
        clientId: 'app-corretora',
        clientSecret: 'segredo-demo-corretora-2026',
        name: 'App da Corretora',
        usuarioId: 'b8e2a4c6-1d3f-4a5b-9c7d-2e4f6a8b0c1d',
        sistemaOrigem: 7,
      },
      {
        // The health-evaluation system: it publishes events (README: "Publishing an event").
        clientId: 'avaliacao-saude',
        clientSecret: 'segredo-demo-eventos-2026',
        name: 'Sistema de Avaliação de Saúde',
        usuarioId: '00000000-0000-4000-8000-00000000e001',
        sistemaOrigem: 1,
        scopes: ['eventos:publicar'],
      },
    ],
    webhookConfigs: [
      {
        id: '3f2a9c1e-5b7d-4e8f-a1b2-c3d4e5f6a7b8',
        usuarioId: '7d4f1c2a-3b5e-4c6d-8e9f-0a1b2c3d4e5f',
        sistemaOrigem: 3,
        clientId: 'portal-parceiro',
        url: 'https://hooks.parceiro.exemplo.com.br/avaliacao-saude',
        headers: [{ chave: 'X-Api-Key', valor: 'chave-demo-123' }],
        eventoAvaliacaoSaudeAprovada: true,
        eventoAvaliacaoSaudeAguardandoAprovacao: true,
        eventoAvaliacaoSaudeArquivada: false,
        eventoAvaliacaoSaudeDesarquivada: false,
        eventoPropostaCancelada: true,
      },
      {
        id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
        usuarioId: '7d4f1c2a-3b5e-4c6d-8e9f-0a1b2c3d4e5f',
        sistemaOrigem: 3,
        clientId: null,
        url: 'https://integracao.parceiro.exemplo.com.br/webhooks/propostas',
        headers: [],
        eventoPropostaCancelada: true,
      },
      {
        id: 'c1d2e3f4-a5b6-4c7d-8e9f-a0b1c2d3e4f5',
        usuarioId: 'b8e2a4c6-1d3f-4a5b-9c7d-2e4f6a8b0c1d',
        sistemaOrigem: 7,
        clientId: 'app-corretora',
        url: 'https://api.corretora.exemplo.com.br/notificacoes',
        headers: [
          { chave: 'Authorization', valor: 'Bearer token-demo-corretora' },
          { chave: 'X-Origem', valor: 'integration-console' },
        ],
        eventoAvaliacaoSaudeAprovada: true,
        eventoAvaliacaoSaudeArquivada: true,
        eventoAvaliacaoSaudeDesarquivada: true,
      },
    ],
    procedures: [
      { nrSeqProcInterno: 50101, description: 'Ressonância magnética de joelho', defaultMinutes: 40, requiresSide: true },
      { nrSeqProcInterno: 50102, description: 'Ultrassonografia de abdome total', defaultMinutes: 30, requiresSide: false },
      { nrSeqProcInterno: 50103, description: 'Radiografia de tórax (PA e perfil)', defaultMinutes: 20, requiresSide: false },
      { nrSeqProcInterno: 50104, description: 'Ultrassonografia de mamas', defaultMinutes: 30, requiresSide: true },
    ],
    slots: demoSlots(now),
  };
}
