import 'server-only';
import { Refusal } from '@/lib/errors/refusal';
import { FieldRejected } from '@/lib/validation/field-rejected';
import { log, redactError } from '@/lib/log';

/**
 * A console page's first data, loaded on the server while it renders and handed to TanStack Query
 * in the browser (<PrefetchedQueries>): the page arrives with its content instead of spinners, and
 * the browser makes no second round of requests and renders once. Each load calls the same service
 * function as the API route, for the signed-in staff member, under the key the client component
 * reads. A load that fails is left out: the component then asks the API itself and shows that
 * answer (403, 404, 503…) as it always did.
 *
 * These pages have no loading.tsx: their first HTML is the page itself. So a slow back-end (the
 * hospital's Oracle listing slots) must not hold it: a load still running after the budget is left
 * out too, and the page shows its own "loading" state for that list while the browser asks.
 */
const PREFETCH_BUDGET_MS = 400;

class PrefetchOverBudget extends Error {}

function withinBudget<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PrefetchOverBudget()), PREFETCH_BUDGET_MS);
  });
  // A load that lost the race still settles later; its failure then has no one to tell.
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
export type PrefetchedQuery = { queryKey: readonly unknown[]; load: () => Promise<unknown> };
/** A load's answer as the browser's QueryClient is seeded with it (components/console/prefetched-queries.tsx). */
export type PrefetchedAnswer = { queryKey: readonly unknown[]; data: unknown; updatedAt: number };

export async function prefetchedAnswers(queries: PrefetchedQuery[]): Promise<PrefetchedAnswer[]> {
  const answers = await Promise.all(
    queries.map(async ({ queryKey, load }): Promise<PrefetchedAnswer | undefined> => {
      try {
        // Exactly what the API would answer: JSON, so no Date or undefined the browser's fetch would not see.
        const data = JSON.parse(JSON.stringify(await withinBudget(load()))) as unknown;
        return { queryKey, data, updatedAt: Date.now() };
      } catch (error) {
        const key = queryKey.filter((part) => typeof part === 'string').join('.');
        if (error instanceof PrefetchOverBudget) log.info('console.prefetch_over_budget', { key });
        // A refusal (404, 403, 501, a bad field…) is an answer the component will show; anything else is worth a look.
        else if (!(error instanceof Refusal) && !(error instanceof FieldRejected))
          log.warn('console.prefetch_failed', { key, ...redactError(error) });
        return undefined;
      }
    }),
  );
  return answers.filter((answer) => answer !== undefined);
}
