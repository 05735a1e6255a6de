// What the production build was made from, so the README's start command (scripts/start.sh) skips
// `npm install` and `npm run build` when nothing they depend on changed, and redoes them when
// anything did. A digest of file contents, not of times: a checkout, a copy or an editor that
// keeps times cannot fool it, and it takes a few tens of milliseconds.
//
//   node scripts/build-inputs.mjs record    (prebuild) digest of the sources, kept aside
//   node scripts/build-inputs.mjs commit    (postbuild) the build succeeded: that digest is now the build's
//   node scripts/build-inputs.mjs check     exit 0 when the build is current, 1 (saying why) when not
//   node scripts/build-inputs.mjs install-check | install-commit    the same for node_modules
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { API_SERVER_BUNDLE } from '../lib/config/served-paths.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const NEXT_DIR = path.join(ROOT, '.next');
// `next build` empties .next except its cache folder, so the digest taken before it waits there.
const PENDING = path.join(NEXT_DIR, 'cache', 'integration-console-build-inputs');
const BUILT = path.join(NEXT_DIR, 'build-inputs');
const INSTALLED = path.join(ROOT, 'node_modules', '.integration-console-install-inputs');
/** What `npm start` and `npm run create-admin` load: a build missing one of these is no build. */
const OUTPUTS = [['.next', 'standalone', 'server.js'], API_SERVER_BUNDLE, ['.next', 'standalone', 'create-admin.mjs']];

/**
 * Files the build does not read: tests, their settings, benchmarks and documents. Editing them
 * leaves the build as it was (an e2e spec edited between runs must not make the next start rebuild).
 */
const NOT_BUILD_INPUTS = [/^e2e\//, /^docs\//, /\.md$/, /\.test\.tsx?$/, /^(vitest|playwright)\.config\./, /^scripts\/bench\//, /^\.ci\//];

/** Folders never part of the sources, for a copy without git (a release tarball, a Docker context). */
const NEVER_SOURCES = new Set([
  'node_modules',
  '.next',
  '.git',
  '.data',
  '.runtime',
  '.tmp',
  '.bench',
  'test-results',
  'playwright-report',
]);

/** The project's source files: git's tracked and untracked-but-not-ignored files, or a walk without git. */
export function sourceFiles(root = ROOT) {
  let files;
  try {
    const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
    files = listed.toString('utf8').split('\0').filter(Boolean);
  } catch {
    files = walk(root, '');
  }
  return [...new Set(files)].filter((file) => !NOT_BUILD_INPUTS.some((pattern) => pattern.test(file))).sort();
}

function walk(root, relative) {
  const found = [];
  for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
    if (NEVER_SOURCES.has(entry.name)) continue;
    const file = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...walk(root, file));
    else if (entry.isFile()) found.push(file);
  }
  return found;
}

/** One digest of every source file's path and content, and of the Node.js that builds and runs them. */
export function sourcesDigest(root = ROOT) {
  const hash = createHash('sha256').update(`node ${process.version} ${process.platform}-${process.arch}\n`);
  for (const file of sourceFiles(root)) {
    let content;
    try {
      content = fs.readFileSync(path.join(root, file));
    } catch {
      content = Buffer.from('\0deleted'); // tracked, but removed from the working tree
    }
    hash.update(`${file}\0${createHash('sha256').update(content).digest('hex')}\n`);
  }
  return hash.digest('hex');
}

/** What `npm install` depends on: the manifest, the lockfile and the Node.js it installs for. */
export function installDigest(root = ROOT) {
  const hash = createHash('sha256').update(`node ${process.version} ${process.platform}-${process.arch}\n`);
  for (const file of ['package.json', 'package-lock.json']) hash.update(fs.readFileSync(path.join(root, file)));
  return hash.digest('hex');
}

const read = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : undefined);

/** Why the build is not current, or undefined when it is. */
export function staleBuildReason(root = ROOT) {
  const missing = OUTPUTS.find((parts) => !fs.existsSync(path.join(root, ...parts)));
  if (missing) return `${path.join(...missing)} is missing`;
  const built = read(path.join(root, '.next', 'build-inputs'));
  if (!built) return 'no record of what the build was made from';
  return built === sourcesDigest(root) ? undefined : 'sources changed since the last build';
}

function main(command) {
  switch (command) {
    case 'record':
      fs.mkdirSync(path.dirname(PENDING), { recursive: true });
      fs.writeFileSync(PENDING, sourcesDigest());
      return 0;
    case 'commit':
      // Only a digest taken before this build describes it; without one, the build stays unrecorded.
      if (fs.existsSync(PENDING)) fs.renameSync(PENDING, BUILT);
      return 0;
    case 'check': {
      const reason = staleBuildReason();
      if (reason) console.log(`build needed: ${reason}`);
      return reason ? 1 : 0;
    }
    case 'install-check':
      return read(INSTALLED) === installDigest() ? 0 : 1;
    case 'install-commit':
      fs.writeFileSync(INSTALLED, installDigest());
      return 0;
    default:
      console.error('usage: node scripts/build-inputs.mjs record|commit|check|install-check|install-commit');
      return 2;
  }
}

if (import.meta.main ?? process.argv[1] === import.meta.filename) process.exitCode = main(process.argv[2]);
