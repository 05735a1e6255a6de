import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetEnv } from '@/lib/testing/hooks';

/** The secret a demo or a first start generates in DATA_DIR, when AUTH_SECRET is not set. */
describe('the generated signing secret', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetEnv();
  });

  async function secretIn(dataDir: string): Promise<string> {
    delete process.env.AUTH_SECRET;
    process.env.DATA_DIR = dataDir;
    resetEnv();
    vi.resetModules(); // the module keeps the secret it read
    return (await import('./signing-secret')).signingSecret();
  }

  it('is made once, owner-only, and read again after a restart; no draft is left beside it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-secret-'));
    const first = await secretIn(dataDir);
    expect(first).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(fs.statSync(path.join(dataDir, 'auth-secret')).mode & 0o777).toBe(0o600);
    expect(await secretIn(dataDir)).toBe(first);
    expect(fs.readdirSync(dataDir)).toEqual(['auth-secret']);
  });

  it('on a volume without hard links, the file is created exclusively instead', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-secret-nolink-'));
    const noLinks = vi.spyOn(fs, 'linkSync').mockImplementation(() => {
      throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
    });
    try {
      const secret = await secretIn(dataDir);
      expect(noLinks).toHaveBeenCalledOnce();
      expect(secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
      expect(fs.statSync(path.join(dataDir, 'auth-secret')).mode & 0o777).toBe(0o600);
      expect(fs.readdirSync(dataDir)).toEqual(['auth-secret']);
    } finally {
      noLinks.mockRestore();
    }
  });
});
