import { describe, expect, it } from 'vitest';
import { generateClientSecret, hashClientSecret, verifyClientSecret } from './client-secrets';
import { hashSecret } from './passwords';

describe('client secrets', () => {
  it('verifies the right secret against its SHA-256 form and refuses any other', async () => {
    const stored = hashClientSecret('segredo-do-cliente');
    expect(stored).toMatch(/^sha256\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyClientSecret('segredo-do-cliente', stored)).toEqual({ valid: true });
    expect(await verifyClientSecret('segredo-do-cliente ', stored)).toEqual({ valid: false });
  });

  it('refuses every secret for an unknown client, the decoy included', async () => {
    expect(await verifyClientSecret('', undefined)).toEqual({ valid: false });
    expect(await verifyClientSecret('qualquer', undefined)).toEqual({ valid: false });
  });

  it('accepts a stored scrypt hash once and hands back its fast replacement', async () => {
    const legacy = await hashSecret('segredo-antigo');
    const check = await verifyClientSecret('segredo-antigo', legacy);
    expect(check).toEqual({ valid: true, rehash: hashClientSecret('segredo-antigo') });
    expect(await verifyClientSecret('outro', legacy)).toEqual({ valid: false });
  });

  it('generates secrets of 256 random bits, never twice the same', () => {
    const secrets = new Set(Array.from({ length: 100 }, generateClientSecret));
    expect(secrets.size).toBe(100);
    for (const secret of secrets) expect(Buffer.from(secret.slice('ics_'.length), 'base64url')).toHaveLength(32);
  });
});
