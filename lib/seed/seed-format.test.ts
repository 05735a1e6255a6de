import { describe, expect, it } from 'vitest';
import { seedSchema } from './seed-format';

describe('seedSchema', () => {
  it('stores UUIDs lowercase, so an uppercase seed id is reachable by its lowercased path', () => {
    const seed = seedSchema.parse({
      apiClients: [
        { clientId: 'c', clientSecret: 'secret-123', name: 'C', usuarioId: 'AAAAAAAA-0000-4000-8000-00000000000A', sistemaOrigem: 1 },
      ],
      webhookConfigs: [
        {
          id: 'BBBBBBBB-0000-4000-8000-00000000000B',
          usuarioId: 'AAAAAAAA-0000-4000-8000-00000000000A',
          sistemaOrigem: 1,
          url: 'https://x.exemplo.com.br',
        },
      ],
    });
    expect(seed.apiClients[0]?.usuarioId).toBe('aaaaaaaa-0000-4000-8000-00000000000a');
    expect(seed.webhookConfigs[0]).toMatchObject({
      id: 'bbbbbbbb-0000-4000-8000-00000000000b',
      usuarioId: 'aaaaaaaa-0000-4000-8000-00000000000a',
    });
  });
});
