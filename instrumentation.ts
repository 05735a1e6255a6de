/**
 * Runs once when the server starts: validates the configuration then, so a bad setting stops the
 * server with a message naming the variable instead of failing requests later. (Next only logs an
 * error thrown here and keeps serving, so the process exits itself.)
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { env } = await import('./lib/config/env');
  try {
    env();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
