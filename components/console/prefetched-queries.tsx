'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import type { PrefetchedAnswer } from '@/lib/console/prefetch';

/**
 * Hands the server's first answers (lib/console/prefetch.ts) to this page's QueryClient before the
 * children read them, as TanStack's HydrationBoundary does. These are plain JSON answers, never
 * pending queries or errors, so seeding them takes a few lines instead of query-core's general
 * hydrate (about 1 KiB of every such page's first load).
 */
export function PrefetchedQueries({ answers, children }: { answers: PrefetchedAnswer[]; children: ReactNode }) {
  const client = useQueryClient();
  // Queries the cache does not hold yet are seeded during this render, so the children's first
  // render already has the data (and matches the server's HTML).
  useState(() => {
    for (const { queryKey, data, updatedAt } of answers)
      if (client.getQueryState(queryKey) === undefined) client.setQueryData(queryKey, data, { updatedAt });
  });
  // A client navigation back to the page brings newer answers for queries already cached: those
  // are updated after rendering, as updating another component's query during render must not be.
  useEffect(() => {
    for (const { queryKey, data, updatedAt } of answers)
      if ((client.getQueryState(queryKey)?.dataUpdatedAt ?? 0) < updatedAt) client.setQueryData(queryKey, data, { updatedAt });
  }, [client, answers]);
  return children;
}
