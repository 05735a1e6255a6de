import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { env } from '@/lib/config/env';

/**
 * The secret that signs API tokens and staff sessions: AUTH_SECRET, or one generated on first
 * start and kept (mode 0600) in DATA_DIR so a demo needs no configuration and survives restarts.
 * Instances behind a load balancer must share AUTH_SECRET.
 */
let cached: string | undefined;

export function signingSecret(): string {
  if (cached) return cached;
  const { AUTH_SECRET, dataDir } = env();
  if (AUTH_SECRET) return (cached = AUTH_SECRET);
  const file = path.join(dataDir, 'auth-secret');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    // 'wx' fails if another process created it first; then we read theirs.
    fs.writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  cached = fs.readFileSync(file, 'utf8').trim();
  return cached;
}
