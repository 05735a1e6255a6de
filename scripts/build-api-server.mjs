// Part of `npm run build`: bundles the lean API path (lib/api-server: `npm start` mounts it in
// front of Next, `npm run start:api` serves it alone) with esbuild. Its entry is generated here from
// the app's own API route modules (app/api/**/route.ts), each mounted at its App Router path, so a
// new route is served by both with no list to keep. Next's own routes (lib/api-server/paths.mjs:
// the console's sign-in, the reference page) stay with Next. Packages stay external: the bundle
// runs from the project folder.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { API_SERVER_BUNDLE, servedByApiServer } from '../lib/api-server/paths.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const API_DIR = path.join(ROOT, 'app', 'api');
const OUTFILE = path.join(ROOT, ...API_SERVER_BUNDLE);

const routes = fs
  .readdirSync(API_DIR, { recursive: true })
  .map((file) => file.split(path.sep).join('/'))
  .filter((file) => file.endsWith('/route.ts') || file === 'route.ts')
  .filter((file) => servedByApiServer(`/api/${path.posix.dirname(file)}/`))
  .sort();

const imports = routes.map((file, i) => `import * as route${i} from './app/api/${file.replace(/\.ts$/, '')}';`);
const entries = routes.map((file, i) => `  { pattern: ${JSON.stringify(`/api/${path.posix.dirname(file)}`)}, module: route${i} },`);
// The bundle exports the listener (`npm start` mounts it in front of Next) and `listen` (`npm run
// start:api` serves it alone).
const contents = [
  "import { apiRequestListener, serveApi } from '@/lib/api-server/serve';",
  ...imports,
  'const entries = [',
  ...entries,
  '];',
  'export const apiListener = apiRequestListener(entries);',
  'export const listen = (port, host) => serveApi(entries, port, host);',
].join('\n');

/** `server-only` throws outside React Server Components' resolution; this server is server-only. */
const serverOnly = {
  name: 'server-only',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^server-only$/ }, () => ({ path: 'server-only', namespace: 'empty' }));
    esbuild.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: '', loader: 'js' }));
  },
};

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
console.log(`lean API server: ${routes.length} route modules → ${path.relative(ROOT, OUTFILE)}`);
