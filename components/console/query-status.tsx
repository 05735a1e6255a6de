'use client';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/lib/i18n/client';
import { ProblemMessage } from './problem-message';

/**
 * The states of a list query: loading, failed (with a retry), empty, or the list itself, so every
 * list of the console says the same thing the same way.
 */
export function QueryStatus<T>({
  query,
  empty,
  children,
}: {
  query: UseQueryResult<T[]>;
  empty: string;
  children: (items: T[]) => ReactNode;
}) {
  const t = useT();
  if (query.isPending) return <Spinner label={t('common.loading')} />;
  if (query.isError) return <QueryError query={query} />;
  if (query.data.length === 0) return <p className="text-sm text-slate-600">{empty}</p>;
  return <>{children(query.data)}</>;
}

/** A query that failed: the problem in the reader's words, and a retry. */
export function QueryError({ query }: { query: Pick<UseQueryResult, 'error' | 'refetch'> }) {
  const t = useT();
  return (
    <Alert
      tone="danger"
      role="alert"
      actions={
        <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
          {t('common.retry')}
        </Button>
      }
    >
      <ProblemMessage error={query.error} />
    </Alert>
  );
}
