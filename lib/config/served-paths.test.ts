import { describe, expect, it } from 'vitest';
import { servedByApiServer } from '@/lib/config/served-paths.mjs';

describe('which paths the lean API path serves', () => {
  it('every /api path but the console’s sign-in (next-auth), which stays with Next', () => {
    expect(servedByApiServer('/api/v1/agendamentos/slots-livres/reservar')).toBe(true);
    expect(servedByApiServer('/api/health')).toBe(true);
    expect(servedByApiServer('/api/docs')).toBe(true);
    expect(servedByApiServer('/api/auth/callback/credentials')).toBe(false);
    expect(servedByApiServer('/api/auth')).toBe(false);
    expect(servedByApiServer('/api/authx')).toBe(true);
    expect(servedByApiServer('/webhooks')).toBe(false);
  });

  it('and Prometheus’ /metrics, which the API’s router serves too', () => {
    expect(servedByApiServer('/metrics')).toBe(true);
    expect(servedByApiServer('/metrics/x')).toBe(false);
  });
});
