// postinstall: makes sure better-sqlite3's native binding loads on this machine, and builds it from
// the package's own sources when it does not.
//
// Why: better-sqlite3 13 ships prebuilt binaries and loads them unless a binary was compiled on
// purpose (build/Release wins, lib/binding.js). On a machine here its prebuilt linux-x64 binary
// crashed every process that loaded it (SIGSEGV in napi_module_register_by_symbol; 13.1.1 and 13.2.0
// alike, under Node 20 and 24) for the first minutes after the machine started, while one compiled
// there loaded; the embedded default went down with no message at all. Later the same file loaded
// again: the cause is the machine's, but a start or a test run that meets it must not fail. The
// check runs in a child process, so a crash is a verdict, not the end of `npm install`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const probe = "const D=require('better-sqlite3');new D(':memory:').prepare('select 1').get()";

function loads() {
  const result = spawnSync(process.execPath, ['-e', probe], { stdio: 'ignore' });
  return result.status === 0;
}

/** npm's own node-gyp: npm hands it to lifecycle scripts, and it ships inside npm otherwise. */
function nodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    process.env.npm_execpath && path.join(path.dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  return candidates.find((candidate) => candidate && existsSync(candidate));
}

if (loads()) process.exit(0);

const gyp = nodeGyp();
if (!gyp) {
  console.error('better-sqlite3: its prebuilt binary does not load here, and npm’s node-gyp was not found to build it');
  process.exit(1);
}
console.log('== better-sqlite3: its prebuilt binary does not load here; building it from source (about a minute)');
const packageDir = path.dirname(require.resolve('better-sqlite3/package.json'));
const built = spawnSync(process.execPath, [gyp, 'rebuild', '--release', '--force_build=1'], { cwd: packageDir, stdio: 'inherit' });
if (built.status !== 0 || !loads()) {
  console.error('better-sqlite3: the build from source failed or does not load either (python3, make and g++ are needed)');
  process.exit(1);
}
console.log('== better-sqlite3: built from source and loads');
