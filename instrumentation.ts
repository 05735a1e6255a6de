/**
 * Runs once when the server starts. The work lives in a Node-only module, imported only on the
 * Node.js runtime, so the Edge compile of this file never sees Node APIs.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startServer } = await import('./lib/startup');
    await startServer();
  }
}
