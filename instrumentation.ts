/**
 * Runs once when the server starts: validates the configuration and opens (creates, migrates,
 * seeds) the database, so a bad setting stops the start with a clear message instead of failing
 * requests one by one.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  try {
    const { env } = await import('./lib/config/env');
    env();
    const { getDb } = await import('./lib/db');
    await getDb();
  } catch (error) {
    console.error(`Integration Console cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
