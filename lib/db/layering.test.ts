import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * lib/db is the bottom layer: connection, dialect, migrations. It may import packages, itself and
 * the settings (lib/config), never a feature (auth, webhooks, scheduling, seed…), so features can
 * depend on it without cycles.
 */
describe('lib/db layering', () => {
  it('imports no feature, only itself and the settings', () => {
    const folder = path.resolve(__dirname);
    const offending: string[] = [];
    for (const file of fs.readdirSync(folder).filter((name) => /\.tsx?$/.test(name))) {
      const source = fs.readFileSync(path.join(folder, file), 'utf8');
      for (const match of source.matchAll(/from\s+'([^']+)'/g)) {
        const target = match[1]!;
        const internal = target.startsWith('@/') || target.startsWith('../');
        if (internal && !target.startsWith('@/lib/db/') && !target.startsWith('@/lib/config/')) offending.push(`${file} → ${target}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
