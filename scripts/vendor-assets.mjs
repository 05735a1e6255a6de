// Before `next build` and `next dev`: copies the API reference's browser bundle (Scalar's standalone
// UMD build) into public/vendor/, so /api/docs is served by the app itself and works offline.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// The package's `browser` entry; its exports map does not expose it, so it is read from disk.
const bundle = path.join(root, 'node_modules', '@scalar', 'api-reference', 'dist', 'browser', 'standalone.js');
const target = path.join(root, 'public', 'vendor', 'scalar', 'standalone.js');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.copyFileSync(bundle, target);
