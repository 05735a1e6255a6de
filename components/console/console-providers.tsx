'use client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ToastProvider } from '@/components/ui/toast';
import { ApiProblem } from '@/lib/client/api';
import { useT } from '@/lib/i18n/client';

/** react-query for API data and the toast area, shared by every console page. */
export function ConsoleProviders({ children }: { children: ReactNode }) {
  const t = useT();
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 10_000,
            refetchOnWindowFocus: false,
            // 4xx answers will not change by asking again.
            retry: (count, error) => !(error instanceof ApiProblem && error.status < 500) && count < 2,
          },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <ToastProvider closeLabel={t('common.close')}>{children}</ToastProvider>
    </QueryClientProvider>
  );
}
