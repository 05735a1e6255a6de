// `npm start`: the standalone production server (the same one the Dockerfile runs). It listens on
// PORT (3000) and HOST (all interfaces). HOSTNAME is what Next's server.js reads, but shells and
// containers set it to the machine's name, so it is set here from HOST instead.
import path from 'node:path';
import './server-entry.mjs';

process.env.HOSTNAME = process.env.HOST ?? '0.0.0.0';
process.env.NODE_ENV = 'production';
await import(path.resolve(import.meta.dirname, '..', '.next', 'standalone', 'server.js'));
