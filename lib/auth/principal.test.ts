import { describe, expect, it } from 'vitest';
import { actorId, ownerKey, type ApiClientPrincipal, type StaffPrincipal } from './principal';

const embedded: ApiClientPrincipal = {
  kind: 'api-client',
  issuer: 'embedded',
  scopes: ['webhooks', 'scheduling'],
  clientId: 'portal-parceiro',
  usuarioId: '11111111-1111-4111-8111-111111111111',
  sistemaOrigem: 3,
};

describe('ownerKey', () => {
  it('tells apart callers that share an actorId: issuers, tenants, and staff whose e-mail equals a client id', () => {
    const platform: ApiClientPrincipal = { ...embedded, issuer: 'platform' };
    const otherTenant: ApiClientPrincipal = { ...embedded, usuarioId: '22222222-2222-4222-8222-222222222222' };
    const staff: StaffPrincipal = { kind: 'staff', userId: 'u1', email: 'portal-parceiro', name: 'Ana', roles: ['admin'] };
    const callers = [embedded, platform, otherTenant, staff];
    expect(new Set(callers.map(actorId)).size).toBe(1);
    expect(new Set(callers.map(ownerKey)).size).toBe(callers.length);
    expect(ownerKey(embedded)).toBe('api-client:embedded:11111111-1111-4111-8111-111111111111:portal-parceiro');
    expect(ownerKey(staff)).toBe('staff:u1');
  });

  it('cannot be forged by putting the separator into a client id', () => {
    const a: ApiClientPrincipal = { ...embedded, usuarioId: 'x', clientId: 'y:z' };
    const b: ApiClientPrincipal = { ...embedded, usuarioId: 'x:y', clientId: 'z' };
    expect(ownerKey(a)).not.toBe(ownerKey(b));
  });

  it('fits the 200-character owner column, hashing client ids that would not fit', () => {
    const long: ApiClientPrincipal = { ...embedded, clientId: 'ç'.repeat(100) };
    const longer: ApiClientPrincipal = { ...embedded, clientId: 'ç'.repeat(101) };
    expect(ownerKey(long).length).toBeLessThanOrEqual(200);
    expect(ownerKey(long)).toMatch(/:#[0-9a-f]{64}$/);
    expect(ownerKey(long)).not.toBe(ownerKey(longer));
  });
});
