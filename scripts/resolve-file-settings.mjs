// Used by the server commands (scripts/serve.mjs, scripts/serve-api.mjs) before the app loads.
import path from 'node:path';
import { DEFAULT_DATA_DIR, FILE_SETTINGS } from '../lib/config/file-settings.mjs';

/**
 * Next's standalone server.js changes the working directory to its own folder (.next/standalone),
 * which every build deletes and makes anew: a relative DATA_DIR read after that put the demo's
 * database and generated secret where the next build wiped them. So paths are made absolute first:
 * a relative value the user gave against the directory the command was started in (`cwd`), and
 * DATA_DIR's default against the project folder (`projectRoot`), the `./.data` the README names.
 * Empty values count as unset (lib/config/env.ts), so an empty DATA_DIR gets the default too.
 */
export function resolveFileSettings(environment, { cwd, projectRoot }) {
  if (!environment.DATA_DIR) environment.DATA_DIR = path.resolve(projectRoot, DEFAULT_DATA_DIR);
  for (const name of FILE_SETTINGS) {
    const value = environment[name];
    if (value) environment[name] = path.resolve(cwd, value);
  }
}
