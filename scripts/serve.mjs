// `npm start`: the standalone production server (the same one the Dockerfile runs), with the API
// paths answered by the lean API path in the same process (scripts/server-entry.mjs, 5). It listens
// on PORT (3000) and HOST (all interfaces). HOSTNAME is what Next's server.js reads, but shells and
// containers set it to the machine's name, so it is set here from HOST instead. Paths in the
// settings are made absolute before server.js changes into .next/standalone (scripts/resolve-file-settings.mjs).
import path from 'node:path';
import './server-entry.mjs';
import { API_SERVER_BUNDLE, servedByApiServer } from '../lib/config/served-paths.mjs';
import { resolveFileSettings } from './resolve-file-settings.mjs';

const root = path.resolve(import.meta.dirname, '..');
resolveFileSettings(process.env, { cwd: process.cwd(), projectRoot: root });
process.env.HOSTNAME = process.env.HOST ?? '0.0.0.0';
process.env.NODE_ENV = 'production';
const { apiListener } = await import(path.join(root, ...API_SERVER_BUNDLE));
globalThis[Symbol.for('integration-console.api-route')] = { serves: servedByApiServer, listener: apiListener };
await import(path.join(root, '.next', 'standalone', 'server.js'));
