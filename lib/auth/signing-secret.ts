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
  if (!fs.existsSync(file)) createOnce(file);
  cached = fs.readFileSync(file, 'utf8').trim();
  return cached;
}

/**
 * Writes the secret to a file of this process's own, then links it into place: the link appears
 * whole or not at all, so another instance starting on the same DATA_DIR (the lean API server
 * beside `npm start`) never reads a file created but not yet written, and signs with what it read.
 * When it finds a link already there it takes that one. A volume without hard links gets the file
 * created exclusively instead, which leaves only that short window.
 */
function createOnce(file: string): void {
  const secret = randomBytes(48).toString('base64url');
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  fs.writeFileSync(draft, secret, { flag: 'wx', mode: 0o600 });
  try {
    fs.linkSync(draft, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (!code || !NO_HARD_LINKS.has(code)) throw error;
    createExclusively(file, secret);
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

function createExclusively(file: string, secret: string): void {
  try {
    fs.writeFileSync(file, secret, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
