// Part of `npm run build`: bundles the create-admin command (lib/staff/admin-command.ts) into the
// standalone output, beside server.js, so it runs wherever the server runs: `npm run create-admin`
// on the machine, `node create-admin.mjs` in the container image (which copies .next/standalone).
// Only the packages Next keeps external (next.config.mjs) stay outside: those are the ones the
// standalone output's node_modules holds; everything else is bundled in.
import path from 'node:path';
import { build } from 'esbuild';
import nextConfig from '../next.config.mjs';
import { serverOnly } from './esbuild-server-only.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUTFILE = path.join(ROOT, '.next', 'standalone', 'create-admin.mjs');

const contents = [
  "import { readStandardInput, runAdminCommand } from '@/lib/staff/admin-command';",
  'const io = { out: (line) => console.log(line), err: (line) => console.error(line), readStdin: readStandardInput };',
  'process.exit(await runAdminCommand(process.argv.slice(2), io));',
].join('\n');

await build({
  stdin: { contents, resolveDir: ROOT, sourcefile: 'create-admin-entry.ts', loader: 'ts' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  external: nextConfig.serverExternalPackages,
  // Bundled CommonJS packages call require(); ESM output has none of its own.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  plugins: [serverOnly],
  outfile: OUTFILE,
  logLevel: 'warning',
  legalComments: 'none',
});
console.log(`create-admin command → ${path.relative(ROOT, OUTFILE)}`);
