'use client';
import { ApiProblem } from '@/lib/client/api';
import { useT } from '@/lib/i18n/client';

/**
 * One sentence for a failed request, in the UI's language. The API's `detail` texts are English,
 * so statuses the console knows get its own words; others show the server's detail.
 */
export function ProblemMessage({ error }: { error: unknown }) {
  const t = useT();
  if (!(error instanceof ApiProblem)) return <>{t('error.network')}</>;
  if (error.status === 403) return <>{t('forbidden.body')}</>;
  if (error.status === 404) return <>{t('notFound.body')}</>;
  if (error.status >= 500) return <>{t('error.server', { status: error.status })}</>;
  return <>{error.problem.detail ?? t('error.server', { status: error.status })}</>;
}
