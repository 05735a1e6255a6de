import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Each table is queried from one module (issue 19), so a column's meaning and a row's invariants
 * live in one place: pages, routes and other features go through that module's functions. The
 * migrations and the seed write every table and are left out. One exception, named here: the
 * delivery store's claim and fan-out read configuration rows, their subscriptions and their tenants'
 * lock rows inside the delivery's own transaction. A module is a file, or one of the folders named
 * here whose files split one store by job (the delivery store: queue, claims, outcomes, log,
 * statistics, retention; the configurations' store: configurations, subscriptions, tenants; the
 * embedded scheduler: its reservations, its listings and the hold rule they share).
 */
const ROOT = path.resolve(__dirname, '../..');
const LEFT_OUT = [/\.test\.ts$/, /^lib\/db\/migrations\//, /^lib\/seed\//, /^lib\/testing\//];
const STORE_FOLDERS = ['lib/webhooks/delivery/store/', 'lib/webhooks/configurations/store/', 'lib/scheduling/embedded/'];
const ALSO_ALLOWED: Record<string, string[]> = {
  webhook_configs: ['lib/webhooks/delivery/store/'],
  webhook_subscriptions: ['lib/webhooks/delivery/store/'],
  webhook_tenants: ['lib/webhooks/delivery/store/'],
};

function moduleOf(file: string): string {
  return STORE_FOLDERS.find((folder) => file.startsWith(folder)) ?? file;
}

function sources(folder: string): string[] {
  return fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) return sources(relative);
    return /\.tsx?$/.test(entry.name) && !LEFT_OUT.some((pattern) => pattern.test(relative)) ? [relative] : [];
  });
}

const MIGRATIONS = path.join(ROOT, 'lib/db/migrations');
const tables = fs
  .readdirSync(MIGRATIONS)
  .flatMap((file) => [...fs.readFileSync(path.join(MIGRATIONS, file), 'utf8').matchAll(/createTable\('(\w+)'/g)].map((m) => m[1]!));
const files = ['lib', 'app', 'components'].flatMap(sources).map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), 'utf8') }));

describe('table ownership', () => {
  it('finds the tables', () => {
    expect(tables).toEqual(expect.arrayContaining(['staff_users', 'api_clients', 'webhook_configs', 'webhook_deliveries']));
  });

  it.each([...new Set(tables)])('%s is queried from one module', (table) => {
    // A query names its table as a call's first argument: db('t'), trx('t as x'), .from('t'), .join('t …').
    const query = new RegExp(`\\(\\s*'${table}(?: as \\w+)?'`);
    const users = files.filter(({ text }) => query.test(text)).map(({ file }) => file);
    const owners = new Set(users.map(moduleOf).filter((module) => !(ALSO_ALLOWED[table] ?? []).includes(module)));
    expect(owners.size, `${table}: ${users.join(', ')}`).toBeLessThanOrEqual(1);
  });
});
