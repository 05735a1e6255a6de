/**
 * The layers of lib/, declared once, and the measure of how the code keeps to them.
 *
 *   npm run layers            prints the folder table, the file cycles and the arrows pointing back up
 *   npm run layers -- --write also rewrites the table between the markers in docs/architecture.md
 *
 * A "folder" is a first-level folder of lib/ (lib/webhooks/delivery/store.ts belongs to webhooks) or a
 * file directly in lib/ (lib/log.ts is the folder "log"). Imports are read with the TypeScript
 * compiler's own pre-processing and resolved as the compiler resolves them (tsconfig paths, so `@/`
 * and relative paths alike); type-only imports count, since they are dependencies too. Tests are left
 * out: a test may reach anywhere to set its scene.
 *
 * lib/layering.test.ts holds the code to what is declared here.
 */
import fs from 'node:fs';
import path from 'node:path';
import prettier from 'prettier';
import ts from 'typescript';

/**
 * Bottom to top. A folder may import the folders in its `may` (each lower in this list) and nothing
 * else of lib/, but for the files named in its `exceptions`, each with why. An import of a folder
 * higher in this list is an arrow back up; every one left is an exception named here.
 */
export type Layer = {
  folder: string;
  holds: string;
  may: readonly string[];
  exceptions?: Readonly<Record<string, string>>;
};

const BASE = ['config', 'i18n', 'validation', 'errors', 'log', 'observability', 'db'];

export const LAYERS: readonly Layer[] = [
  {
    folder: 'config',
    holds: 'settings read from the environment and files (env()), each section validated',
    may: [],
    exceptions: {
      'lib/webhooks/operational/config.ts': "OPERATIONAL_WEBHOOK_URL, checked by the webhooks' URL policy",
    },
  },
  { folder: 'i18n', holds: 'the message catalogue (pt-BR, English), locale, Brasília time', may: [] },
  { folder: 'validation', holds: 'zod helpers shared by forms and routes: field errors, text rules, JSON Schema', may: ['i18n'] },
  { folder: 'errors', holds: 'Refusal: how a service says no, with no HTTP in it', may: ['i18n'] },
  { folder: 'log', holds: 'the structured log, secrets and patient data redacted', may: ['config'] },
  {
    folder: 'observability',
    holds: 'tracing and metrics',
    may: ['config', 'log'],
  },
  {
    folder: 'db',
    holds: 'connection and handle (getDb), dialect, migrations, precompiled queries',
    may: ['config', 'log', 'observability'],
    exceptions: {
      'lib/auth/signing-secret.ts': 'migration 020 re-seals stored secrets under the key derived from it',
    },
  },
  { folder: 'mail', holds: 'outgoing e-mail', may: ['config', 'log'] },
  { folder: 'idempotency', holds: 'idempotency keys and their stored answers', may: [...BASE] },
  {
    folder: 'auth',
    holds: 'passwords, tokens, principals, capabilities, sessions, throttling',
    may: [...BASE],
  },
  { folder: 'audit', holds: 'the audit trail (store) and its masking', may: [...BASE, 'auth'] },
  { folder: 'staff', holds: 'staff accounts: store, service, first administrator, create-admin', may: [...BASE, 'audit', 'auth', 'mail'] },
  { folder: 'api-clients', holds: 'API clients (partners) and their secrets', may: [...BASE, 'audit', 'auth'] },
  {
    folder: 'scheduling',
    holds: 'slots, holds and reservations; embedded and Oracle back-ends',
    may: [...BASE, 'audit', 'auth', 'idempotency'],
  },
  {
    folder: 'webhooks',
    holds: 'configurations, the delivery engine and its destinations, alerts, operational notices',
    may: [...BASE, 'audit', 'auth', 'idempotency', 'mail', 'staff'],
  },
  {
    folder: 'http',
    holds: 'the route wrapper and its callers (authenticators, policies), the operation type, answers, bodies, problem+json',
    may: [...BASE, 'auth', 'idempotency'],
  },
  {
    folder: 'waitlist',
    holds: 'the scheduling waitlist: entries, offers of freed slots, their worker and scheduling events',
    may: [...BASE, 'audit', 'auth', 'scheduling', 'webhooks'],
  },
  {
    folder: 'portal',
    holds: "the partner portal's single-use links and sessions, a session as its tenant's API client, its callers",
    may: [...BASE, 'audit', 'auth', 'http', 'webhooks'],
  },
  {
    folder: 'retention',
    holds: 'hourly pruning: old delivery history, audit entries, ended portal links, release data',
    may: [...BASE, 'audit', 'portal', 'scheduling', 'webhooks'],
  },
  {
    folder: 'seed',
    holds: "the seed format, the demo's data, the preparation run at start",
    may: [...BASE, 'api-clients', 'auth', 'scheduling', 'staff', 'webhooks'],
  },
  {
    folder: 'shutdown',
    holds: "a deploy's orderly stop: drain workers, close pools",
    may: [...BASE, 'retention', 'scheduling', 'waitlist', 'webhooks'],
  },
  { folder: 'health', holds: 'readiness, liveness and the metrics scrape', may: [...BASE, 'scheduling', 'shutdown', 'webhooks'] },
  {
    folder: 'sign-in',
    holds: 'how staff and partners sign in: NextAuth options, SSO, the token endpoint',
    may: [...BASE, 'api-clients', 'audit', 'auth', 'http', 'staff'],
  },
  {
    folder: 'openapi',
    holds: 'the OpenAPI document, built from the operations it is handed',
    may: [...BASE, 'api-clients', 'audit', 'auth', 'health', 'http', 'portal', 'scheduling', 'staff', 'webhooks'],
  },
  {
    folder: 'api',
    holds: 'the operations, one object each, the router and the route table',
    may: [
      ...BASE,
      'api-clients',
      'audit',
      'auth',
      'health',
      'http',
      'idempotency',
      'openapi',
      'portal',
      'scheduling',
      'sign-in',
      'staff',
      'waitlist',
      'webhooks',
    ],
  },
  {
    folder: 'startup',
    holds: 'what a server does before it answers: settings, migrate, seed, start workers',
    may: [...BASE, 'api', 'auth', 'retention', 'scheduling', 'seed', 'shutdown', 'staff', 'waitlist', 'webhooks'],
  },
  { folder: 'api-server', holds: 'the lean API server (npm run start:api)', may: [...BASE, 'api', 'http', 'shutdown', 'startup'] },
  {
    folder: 'client',
    holds: "the browser's fetch helpers and TanStack Query keys",
    may: ['api', 'api-clients', 'audit', 'auth', 'http', 'i18n', 'portal', 'scheduling', 'staff', 'validation', 'webhooks'],
  },
  {
    folder: 'console',
    holds: "the console pages' server-side prefetch",
    may: [...BASE, 'api', 'auth', 'client', 'http', 'scheduling', 'sign-in', 'staff', 'webhooks'],
  },
  { folder: 'testing', holds: 'contracts, fakes and helpers for tests only', may: ['*'] },
];

/**
 * Within a folder, its own sub-folders in order, bottom to top, where one folder holds several
 * parts that must point one way too (issue 44). A sub-folder may import the ones below it and not
 * those above: lib/webhooks/configurations never imports lib/webhooks/delivery, which calls alerts
 * and operational notices through hooks wired at the composition root (lib/webhooks/wiring.ts).
 * Every file of such a folder sits in one of its sub-folders.
 */
export type SubLayer = { folder: string; holds: string };

export const SUB_LAYERS: Readonly<Record<string, readonly SubLayer[]>> = {
  webhooks: [
    { folder: 'events', holds: 'one record per event type: flag, type, origin, description; its payload schema' },
    { folder: 'payload-control', holds: "a configuration's content filter, field rules and transformation settings" },
    {
      folder: 'configurations',
      holds:
        'contract, service and store of a configuration and its subscriptions, controls, contact, credentials; URL and header policy; secrets; destination kinds',
    },
    {
      folder: 'delivery',
      holds: 'the engine and its runtime state (circuit, failing since, paused until), destinations, quotas, the payload pipeline, health',
    },
    { folder: 'operational', holds: "notices to the operator's receiver and to partners' contacts" },
    { folder: 'alerts', holds: "incidents opened and closed from the delivery state, their operational events, the staff's triage" },
    { folder: 'wiring', holds: "the composition root: the configurations' hooks wired to delivery and alerts (wiring.ts)" },
  ],
};

const ROOT = path.resolve(__dirname, '..');
const SOURCE = /\.(ts|tsx)$/;
const TEST = /\.(test|spec)\.tsx?$|\.d\.ts$/;

function sourcesUnder(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourcesUnder(full);
    return SOURCE.test(entry.name) && !TEST.test(entry.name) ? [full] : [];
  });
}

/** The lib/ folder a file belongs to, or undefined outside lib/. */
export function folderOf(file: string): string | undefined {
  const relative = path.relative(path.join(ROOT, 'lib'), file);
  if (relative.startsWith('..')) return undefined;
  const [first, ...rest] = relative.split(path.sep);
  return rest.length === 0 ? first!.replace(SOURCE, '') : first;
}

export type Graph = Map<string, Set<string>>;

/** Every source file of lib/, app/ and components/ with the project files it imports. */
export function importGraph(): Graph {
  const config = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), (file) => ts.sys.readFile(file));
  const options = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options;
  const host = ts.createCompilerHost(options);
  const files = ['lib', 'app', 'components'].flatMap((folder) => sourcesUnder(path.join(ROOT, folder)));
  const graph: Graph = new Map();
  for (const file of files) {
    const imports = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles;
    const targets = new Set<string>();
    for (const { fileName } of imports) {
      const resolved = ts.resolveModuleName(fileName, file, options, host).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const target = path.resolve(resolved.resolvedFileName);
      if (target.startsWith(ROOT) && !target.includes(`${path.sep}node_modules${path.sep}`) && !TEST.test(target)) targets.add(target);
    }
    graph.set(path.resolve(file), targets);
  }
  return graph;
}

/** Strongly connected sets of more than one file (Tarjan), each a file cycle. */
export function fileCycles(graph: Graph, keep: (file: string) => boolean): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!keep(next) || !graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) === index.get(file)) {
      const set: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        set.push(member);
      } while (member !== file);
      if (set.length > 1) cycles.push(set.sort());
    }
  };
  for (const file of graph.keys()) if (keep(file) && !index.has(file)) visit(file);
  return cycles;
}

export interface Arrow {
  from: string;
  to: string;
  file: string;
  target: string;
}

/** Imports between lib/ folders: the ones going up the declared order, and the ones off the allow-list. */
export function folderArrows(graph: Graph): { up: Arrow[]; forbidden: Arrow[]; undeclared: string[] } {
  const rank = new Map(LAYERS.map((layer, position) => [layer.folder, position]));
  const allowed = new Map(LAYERS.map((layer) => [layer.folder, new Set(layer.may)]));
  const excepted = new Map(LAYERS.map((layer) => [layer.folder, new Set(Object.keys(layer.exceptions ?? {}))]));
  const up: Arrow[] = [];
  const forbidden: Arrow[] = [];
  const undeclared = new Set<string>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (!from) continue;
    if (!rank.has(from)) undeclared.add(from);
    for (const target of targets) {
      const to = folderOf(target);
      if (!to || to === from) continue;
      if (!rank.has(to)) undeclared.add(to);
      const arrow = { from, to, file: path.relative(ROOT, file), target: path.relative(ROOT, target) };
      if ((rank.get(to) ?? Infinity) > (rank.get(from) ?? Infinity)) up.push(arrow);
      const may = allowed.get(from);
      const declared = may?.has('*') || may?.has(to) || excepted.get(from)?.has(arrow.target.replace(/\.d\.mts$/, '.mjs'));
      if (!declared) forbidden.push(arrow);
    }
  }
  return { up, forbidden, undeclared: [...undeclared].sort() };
}

/** The sub-folder of a file of a folder with declared sub-layers (lib/webhooks/delivery/store/x.ts: webhooks/delivery). */
export function subFolderOf(file: string): { folder: string; sub: string } | undefined {
  const relative = path.relative(path.join(ROOT, 'lib'), file);
  if (relative.startsWith('..')) return undefined;
  const [folder, sub, ...rest] = relative.split(path.sep);
  if (!folder || !SUB_LAYERS[folder] || !sub) return undefined;
  return { folder, sub: rest.length === 0 ? sub.replace(SOURCE, '') : sub };
}

/** Imports between the sub-folders of one folder that go up its declared order, and sub-folders not declared. */
export function subFolderArrows(graph: Graph): { up: Arrow[]; undeclared: string[] } {
  const up: Arrow[] = [];
  const undeclared = new Set<string>();
  for (const [file, targets] of graph) {
    const from = subFolderOf(file);
    if (!from) continue;
    const order = SUB_LAYERS[from.folder]!.map(({ folder }) => folder);
    if (!order.includes(from.sub)) undeclared.add(`${from.folder}/${from.sub}`);
    for (const target of targets) {
      const to = subFolderOf(target);
      if (!to || to.folder !== from.folder || to.sub === from.sub) continue;
      if (order.indexOf(to.sub) > order.indexOf(from.sub) || !order.includes(to.sub))
        up.push({
          from: `${from.folder}/${from.sub}`,
          to: `${to.folder}/${to.sub}`,
          file: path.relative(ROOT, file),
          target: path.relative(ROOT, target),
        });
    }
  }
  return { up, undeclared: [...undeclared].sort() };
}

/** The table of folders, bottom to top, with what each holds and may import. */
export function layerTable(): string {
  const rows = LAYERS.map(
    ({ folder, holds, may, exceptions = {} }, position) =>
      `| ${position + 1} | \`lib/${folder}\` | ${holds} | ${may.length === 0 ? '(nothing of lib/)' : may.includes('*') ? 'anything' : may.join(', ')}${Object.keys(
        exceptions,
      )
        .map((file) => `; up: \`${file}\``)
        .join('')} |`,
  );
  const subRows = Object.entries(SUB_LAYERS).flatMap(([folder, subs]) =>
    subs.map(
      ({ folder: sub, holds }, position) =>
        `| ${position + 1} | \`lib/${folder}/${sub}\` | ${holds} | ${
          subs
            .slice(0, position)
            .map((lower) => lower.folder)
            .join(', ') || '(none of its neighbours)'
        } |`,
    ),
  );
  return [
    '| # | folder | holds | may import |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    'Sub-folders, bottom to top; each may import the ones below it in its folder:',
    '',
    '| # | sub-folder | holds | may import |',
    '| --- | --- | --- | --- |',
    ...subRows,
  ].join('\n');
}

async function main(): Promise<void> {
  const graph = importGraph();
  const inLib = (file: string) => folderOf(file) !== undefined;
  const libCycles = fileCycles(graph, inLib);
  const allCycles = fileCycles(graph, () => true);
  const { up, forbidden, undeclared } = folderArrows(graph);
  const pairs = (arrows: Arrow[]) => [...new Set(arrows.map(({ from, to }) => `${from} → ${to}`))].sort();

  console.log(layerTable());
  console.log(`\nfiles: ${[...graph.keys()].filter(inLib).length} in lib/, ${graph.size} with app/ and components/`);
  console.log(`file cycles in lib/: ${libCycles.length}; in lib/, app/ and components/: ${allCycles.length}`);
  for (const cycle of allCycles) console.log(`  cycle: ${cycle.map((file) => path.relative(ROOT, file)).join(' ⇄ ')}`);
  console.log(`arrows back up (file imports): ${up.length}; folder pairs: ${pairs(up).length}`);
  for (const arrow of up) console.log(`  up: ${arrow.file} → ${arrow.target}   (${arrow.from} → ${arrow.to})`);
  console.log(`imports off the allow-lists: ${forbidden.length}`);
  for (const arrow of forbidden) console.log(`  off: ${arrow.file} → ${arrow.target}   (${arrow.from} may not import ${arrow.to})`);
  if (undeclared.length > 0) console.log(`folders without a declared layer: ${undeclared.join(', ')}`);
  const sub = subFolderArrows(graph);
  console.log(
    `arrows back up between sub-folders (${Object.keys(SUB_LAYERS).join(', ')}): ${sub.up.length}; pairs: ${pairs(sub.up).length}`,
  );
  for (const arrow of sub.up) console.log(`  up: ${arrow.file} → ${arrow.target}   (${arrow.from} → ${arrow.to})`);
  if (sub.undeclared.length > 0) console.log(`files or sub-folders outside the declared sub-folders: ${sub.undeclared.join(', ')}`);

  if (process.argv.includes('--write')) {
    const doc = path.join(ROOT, 'docs/architecture.md');
    const text = fs.readFileSync(doc, 'utf8');
    const begin = '<!-- layers:begin (npm run layers -- --write) -->';
    const end = '<!-- layers:end -->';
    const [before, rest] = text.split(begin);
    const after = rest?.split(end)[1];
    if (before === undefined || after === undefined) throw new Error(`docs/architecture.md lacks the markers ${begin} … ${end}`);
    const written = `${before}${begin}\n${layerTable()}\n${end}${after}`;
    const options = await prettier.resolveConfig(doc);
    fs.writeFileSync(doc, await prettier.format(written, { ...options, filepath: doc }));
    console.log('\ndocs/architecture.md: table written');
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === __filename) void main();
