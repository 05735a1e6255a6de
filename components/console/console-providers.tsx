'use client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ToastProvider } from '@/components/ui/toast';
import { ApiProblem, type ApiBase } from '@/lib/client/api';
import { ApiBaseProvider } from '@/lib/client/api-base';
import { useT } from '@/lib/i18n/client';

/** react-query for API data, the toast area and the API base its surface's layout gives, shared by the console's pages and the portal's. */
export function ConsoleProviders({ apiBase, children }: { apiBase: ApiBase; children: ReactNode }) {
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
    <ApiBaseProvider base={apiBase}>
      <QueryClientProvider client={client}>
        <ToastProvider closeLabel={t('common.close')}>{children}</ToastProvider>
      </QueryClientProvider>
    </ApiBaseProvider>
  );
}
