// `npm run start:api`: the lean API server (lib/api-server), built by `npm run build`. It serves
// the API operations without Next's request pipeline, listening on PORT (3001) and HOST (all
// interfaces); the same entry checks as `npm start` apply (server-entry.mjs). Behind a load
// balancer, send the API paths here and everything else to `npm start` (docs/production.md).
import path from 'node:path';
import './server-entry.mjs';
import { API_SERVER_BUNDLE } from '../lib/config/served-paths.mjs';
import { resolveFileSettings } from './resolve-file-settings.mjs';

const root = path.resolve(import.meta.dirname, '..');
// The same data folder as `npm start` beside it, from wherever it was started.
resolveFileSettings(process.env, { cwd: process.cwd(), projectRoot: root });
process.env.NODE_ENV = 'production';
const { listen } = await import(path.join(root, ...API_SERVER_BUNDLE));
await listen(Number(process.env.PORT ?? 3001), process.env.HOST ?? '0.0.0.0');
