// After `next build`: puts the static assets and public/ beside the standalone server, as the
// Dockerfile does, so `npm start` (node .next/standalone/server.js) serves the whole console.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const standalone = path.join(root, '.next', 'standalone');
if (!fs.existsSync(path.join(standalone, 'server.js'))) {
  console.error('No .next/standalone/server.js: run `npm run build` first.');
  process.exit(1);
}
fs.cpSync(path.join(root, '.next', 'static'), path.join(standalone, '.next', 'static'), { recursive: true });
if (fs.existsSync(path.join(root, 'public'))) fs.cpSync(path.join(root, 'public'), path.join(standalone, 'public'), { recursive: true });
