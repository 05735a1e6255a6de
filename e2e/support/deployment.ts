import { ApiRouter } from './api-router';
import { freePort, startServer, type ServerEntry } from './server';

/**
 * The servers this run's E2E_API_SERVER stands for, started for one spec with settings of its own,
 * as global-setup.ts starts the run's shared ones: `npm start` (unset), the container image's
 * command (`container`), or `npm run start:api` beside `npm start` behind a balancer that sends it
 * the API paths (`lean`).
 */
export type Deployment = {
  url: string;
  /** Every server's output, in one text. */
  logs(): string;
  stop(): Promise<void>;
};

export async function startDeployment(options: {
  dataDir: string;
  env?: Record<string, string>;
  /** The port its URL has, when a spec must know it first (NEXTAUTH_URL, an identity provider's redirect URI); else a free one. */
  port?: number;
}): Promise<Deployment> {
  const { port, ...server } = options;
  const mode = process.env.E2E_API_SERVER;
  if (mode !== 'lean') {
    const only = await startServer({ ...server, port, entry: mode === 'container' ? 'container' : 'next' });
    return { url: only.url, logs: only.logs, stop: () => only.stop() };
  }
  const next = await startServer({ ...server, entry: 'next' });
  const api = await startServer({ ...server, entry: 'api' }).catch(async (error: unknown) => {
    await next.stop();
    throw error;
  });
  const router = await new ApiRouter(api.url, next.url).listen(port ?? (await freePort()));
  return {
    url: router.url,
    logs: () => `${next.logs()}\n${api.logs()}`,
    stop: async () => {
      await router.stop();
      await Promise.all([api.stop(), next.stop()]);
    },
  };
}

/**
 * The one server command that answers the API paths in this run, for specs about that server's own
 * connections (no balancer in between): `npm start`, `npm run start:api` (lean) or the container's.
 */
export function apiServerEntry(): ServerEntry {
  const mode = process.env.E2E_API_SERVER;
  return mode === 'lean' ? 'api' : mode === 'container' ? 'container' : 'next';
}
