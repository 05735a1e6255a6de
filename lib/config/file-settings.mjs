// Settings that name a file or folder. Plain JavaScript: the server commands make them absolute
// before the app loads (scripts/resolve-file-settings.mjs), and the app's settings
// (lib/config/env.ts) take DATA_DIR's default from here. Only facts here: a path computed in this
// module would make Next's output tracing copy this folder's sources into the standalone output.

/** The embedded database and the generated secret live here unless DATA_DIR says otherwise. */
export const DEFAULT_DATA_DIR = './.data';

/** Every setting whose value is a path (lib/config/env.ts, lib/config/oracle.ts). */
export const FILE_SETTINGS = ['DATA_DIR', 'SEED_FILE', 'ORACLE_CONFIG_DIR', 'ORACLE_WALLET_LOCATION', 'ORACLE_CLIENT_LIB_DIR'];
