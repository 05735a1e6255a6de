/**
 * The seed every e2e run starts from (written to SEED_FILE). Specs that change state use their own
 * agenda (cdAgenda) and their own beneficiary numbers, so parallel workers never see each other's
 * reservations.
 */
export const TENANT_A = {
  clientId: 'e2e-cliente-a',
  clientSecret: 'e2e-segredo-cliente-a',
  usuarioId: '11111111-1111-4111-8111-111111111111',
  sistemaOrigem: 3,
};
export const TENANT_B = {
  clientId: 'e2e-cliente-b',
  clientSecret: 'e2e-segredo-cliente-b',
  usuarioId: '22222222-2222-4222-8222-222222222222',
  sistemaOrigem: 7,
};

/** Only for the token endpoint's throttle spec, which locks this client out of new tokens. */
export const THROTTLE_CLIENT = {
  clientId: 'e2e-cliente-throttle',
  clientSecret: 'e2e-segredo-cliente-throttle',
  usuarioId: '33333333-3333-4333-8333-333333333333',
  sistemaOrigem: 9,
};

/** The health-evaluation system: it may only publish events (issue 10). */
export const PRODUCER = {
  clientId: 'e2e-produtor-eventos',
  clientSecret: 'e2e-segredo-produtor-eventos',
  usuarioId: '44444444-4444-4444-8444-444444444444',
  sistemaOrigem: 1,
  scopes: ['eventos:publicar'],
};

export const STAFF = {
  admin: { email: 'admin@e2e.exemplo.com.br', password: 'Admin#e2e-2026', name: 'Ana Admin', roles: ['admin'] as const },
  webhooks: { email: 'webhooks@e2e.exemplo.com.br', password: 'Webhooks#e2e-2026', name: 'Bruno Webhooks', roles: ['webhooks'] as const },
  scheduling: { email: 'agenda@e2e.exemplo.com.br', password: 'Agenda#e2e-2026', name: 'Carla Agenda', roles: ['scheduling'] as const },
  /** Only for the console's brute-force spec, which locks this account's sign-in. */
  lockout: { email: 'bloqueio@e2e.exemplo.com.br', password: 'Bloqueio#e2e-2026', name: 'Davi Bloqueio', roles: ['scheduling'] as const },
  /** Only for the API spec of parallel sign-in attempts, which locks this account's sign-in. */
  parallelLockout: {
    email: 'bloqueio-paralelo@e2e.exemplo.com.br',
    password: 'Paralelo#e2e-2026',
    name: 'Eva Paralelo',
    roles: ['scheduling'] as const,
  },
};

/** Webhook configurations: WEBHOOK_A* belong to tenant A, WEBHOOK_B1 to tenant B. */
export const WEBHOOK_IDS = {
  a1: 'aaaaaaaa-0001-4000-8000-000000000001',
  a2: 'aaaaaaaa-0002-4000-8000-000000000002',
  a3: 'aaaaaaaa-0003-4000-8000-000000000003',
  a4: 'aaaaaaaa-0004-4000-8000-000000000004',
  a5: 'aaaaaaaa-0005-4000-8000-000000000005',
  a6: 'aaaaaaaa-0006-4000-8000-000000000006',
  a7: 'aaaaaaaa-0007-4000-8000-000000000007',
  a8: 'aaaaaaaa-0008-4000-8000-000000000008',
  /** invisible-characters.spec.ts (API). */
  a9: 'aaaaaaaa-0009-4000-8000-000000000009',
  /** The browser's look-alike host spec. */
  a10: 'aaaaaaaa-0010-4000-8000-000000000010',
  b1: 'bbbbbbbb-0001-4000-8000-000000000001',
};

export const PROCEDURES = {
  /** No laterality, 30 minutes by default. */
  ultrassom: 70001,
  /** Requires ieLado. */
  ressonanciaJoelho: 70002,
  /** No laterality; used by the "already booked" (5) rule. */
  raioX: 70003,
};

/**
 * Agendas 900..941 have SLOTS_PER_AGENDA future slots of 30 minutes, two days ahead. The API specs
 * use 900–919 (the fuzz spec 915–919, any slot), the browser specs 920–939; 940 is the one-click
 * release's API spec's and 941 its browser spec's.
 */
export const FIRST_AGENDA = 900;
export const AGENDA_COUNT = 42;
export const SLOTS_PER_AGENDA = 24;
export const SLOT_MINUTES = 30;
/** An agenda whose only slot is in the past. */
export const PAST_AGENDA = 999;
export const PAST_SLOT = 9_990_001;

/** nrSeqAgenda of the `index`-th slot (0-based) of agenda `cdAgenda`. */
export function slotOf(cdAgenda: number, index: number): number {
  return cdAgenda * 1000 + index + 1;
}

function isoDay(base: Date, daysAhead: number): string {
  return new Date(base.getTime() - 3 * 3_600_000 + daysAhead * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The São Paulo day (YYYY-MM-DD) of the seed's slots: two days after the run began. Fixed once per
 * run (global setup sets it; workers and the servers they start inherit it), so a run that crosses
 * midnight in São Paulo still looks for the slots on the day they were seeded.
 */
export function seedDay(): string {
  process.env.E2E_SEED_DAY ??= isoDay(new Date(), 2);
  return process.env.E2E_SEED_DAY;
}

export function buildTestSeed(day = seedDay()) {
  const slots = [];
  for (let agenda = FIRST_AGENDA; agenda < FIRST_AGENDA + AGENDA_COUNT; agenda++) {
    for (let i = 0; i < SLOTS_PER_AGENDA; i++) {
      const minutes = 7 * 60 + i * SLOT_MINUTES;
      const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
      const mm = String(minutes % 60).padStart(2, '0');
      slots.push({ nrSeqAgenda: slotOf(agenda, i), cdAgenda: agenda, start: `${day}T${hh}:${mm}:00-03:00`, minutes: SLOT_MINUTES });
    }
  }
  // Yesterday by the clock: this slot only has to be in the past, whatever day the run is on.
  slots.push({
    nrSeqAgenda: PAST_SLOT,
    cdAgenda: PAST_AGENDA,
    start: `${isoDay(new Date(), -1)}T08:00:00-03:00`,
    minutes: SLOT_MINUTES,
  });

  const webhook = (id: string, tenant: typeof TENANT_A, url: string) => ({
    id,
    usuarioId: tenant.usuarioId,
    sistemaOrigem: tenant.sistemaOrigem,
    clientId: tenant.clientId,
    url,
    headers: [{ chave: 'X-Api-Key', valor: 'segredo-do-receptor' }],
    eventoAvaliacaoSaudeAprovada: true,
    eventoAvaliacaoSaudeAguardandoAprovacao: false,
    eventoAvaliacaoSaudeArquivada: false,
    eventoAvaliacaoSaudeDesarquivada: false,
    eventoPropostaCancelada: true,
  });

  return {
    staff: Object.values(STAFF).map((user) => ({ ...user, roles: [...user.roles] })),
    apiClients: [TENANT_A, TENANT_B, THROTTLE_CLIENT, PRODUCER].map((tenant) => ({ ...tenant, name: `Cliente ${tenant.clientId}` })),
    webhookConfigs: [
      webhook(WEBHOOK_IDS.a1, TENANT_A, 'https://receptor-a1.exemplo.com.br/hooks'),
      webhook(WEBHOOK_IDS.a2, TENANT_A, 'https://receptor-a2.exemplo.com.br/hooks'),
      webhook(WEBHOOK_IDS.a3, TENANT_A, 'https://receptor-a3.exemplo.com.br/hooks'),
      webhook(WEBHOOK_IDS.a4, TENANT_A, 'https://receptor-a4.exemplo.com.br/hooks'),
      webhook(WEBHOOK_IDS.a5, TENANT_A, 'https://receptor-a5.exemplo.com.br/hooks'),
      webhook(WEBHOOK_IDS.a6, TENANT_A, 'https://receptor-a6.exemplo.com.br/hooks'),
      webhook(WEBHOOK_IDS.a7, TENANT_A, 'https://receptor-a7.exemplo.com.br/hooks'),
      webhook(WEBHOOK_IDS.a8, TENANT_A, 'https://receptor-a8.exemplo.com.br/hooks'),
      webhook(WEBHOOK_IDS.a9, TENANT_A, 'https://receptor-a9.exemplo.com.br/hooks'),
      webhook(WEBHOOK_IDS.a10, TENANT_A, 'https://receptor-a10.exemplo.com.br/hooks'),
      webhook(WEBHOOK_IDS.b1, TENANT_B, 'https://receptor-b1.exemplo.com.br/hooks'),
    ],
    procedures: [
      { nrSeqProcInterno: PROCEDURES.ultrassom, description: 'Ultrassonografia', defaultMinutes: 30, requiresSide: false },
      { nrSeqProcInterno: PROCEDURES.ressonanciaJoelho, description: 'Ressonância de joelho', defaultMinutes: 40, requiresSide: true },
      { nrSeqProcInterno: PROCEDURES.raioX, description: 'Raio-X', defaultMinutes: 20, requiresSide: false },
    ],
    slots,
  };
}
