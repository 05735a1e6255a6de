import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Domain and base modules know nothing of HTTP (issue 19): services throw a Refusal
 * (lib/errors/refusal.ts) or a FieldRejected, and only the API's edge (lib/http, lib/api, app/api)
 * turns them into statuses and problem+json.
 */
const DOMAIN = ['webhooks', 'scheduling', 'staff', 'api-clients', 'idempotency', 'audit', 'data', 'db', 'config', 'errors'];

function sources(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('domain modules and HTTP', () => {
  it('no domain or base module imports lib/http', () => {
    const lib = path.resolve(__dirname, '..');
    const offending = DOMAIN.flatMap((folder) => sources(path.join(lib, folder)))
      .filter((file) => /from\s+'@\/lib\/http\//.test(fs.readFileSync(file, 'utf8')))
      .map((file) => path.relative(lib, file));
    expect(offending).toEqual([]);
  });
});
