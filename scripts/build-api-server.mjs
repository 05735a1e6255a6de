// Part of `npm run build`: bundles the lean API path (lib/api-server: `npm start` mounts it in
// front of Next, `npm run start:api` serves it alone) with esbuild. It serves the API through the
// same router as Next's catch-all route (lib/api/dispatch.ts), so an operation is served by both
// with nothing to list here. Packages stay external: the bundle runs from the project folder.
import path from 'node:path';
import { build } from 'esbuild';
import { API_SERVER_BUNDLE } from '../lib/config/served-paths.mjs';
import { serverOnly } from './esbuild-server-only.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUTFILE = path.join(ROOT, ...API_SERVER_BUNDLE);

// The bundle exports the listener (`npm start` mounts it in front of Next) and `listen` (`npm run
// start:api` serves it alone).
const contents = [
  "import { apiRequestListener, serveApi } from '@/lib/api-server/serve';",
  'export const apiListener = apiRequestListener();',
  'export const listen = (port, host) => serveApi(port, host);',
].join('\n');

await build({
  stdin: { contents, resolveDir: ROOT, sourcefile: 'api-server-entry.ts', loader: 'ts' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  plugins: [serverOnly],
  outfile: OUTFILE,
  sourcemap: 'linked',
  logLevel: 'warning',
  legalComments: 'none',
});
console.log(`lean API server → ${path.relative(ROOT, OUTFILE)}`);
