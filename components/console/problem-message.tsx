'use client';
import { ApiProblem } from '@/lib/client/api';
import { useT } from '@/lib/i18n/client';

/** Quota refusals (issue 27) the console words itself, with the limit the server named (`limite`). */
const QUOTA_MESSAGES = {
  'urn:integration-console:problem:webhook-configuration-quota': 'quota.configurations',
  'urn:integration-console:problem:test-event-rate': 'quota.testEvents',
} as const;

/**
 * One sentence for a failed request, in the UI's language. The API's `detail` texts are English,
 * so statuses (and quota problems) the console knows get its own words; others show the server's detail.
 */
export function ProblemMessage({ error }: { error: unknown }) {
  const t = useT();
  if (!(error instanceof ApiProblem)) return <>{t('error.network')}</>;
  const { type = '', limite, retryAfterSeconds } = error.problem;
  const quota = QUOTA_MESSAGES[type as keyof typeof QUOTA_MESSAGES];
  if (quota && limite !== undefined) return <>{t(quota, { limit: limite, seconds: retryAfterSeconds ?? 60 })}</>;
  if (error.status === 403) return <>{t('forbidden.body')}</>;
  if (error.status === 404) return <>{t('notFound.body')}</>;
  if (error.status >= 500) return <>{t('error.server', { status: error.status })}</>;
  return <>{error.problem.detail ?? t('error.server', { status: error.status })}</>;
}
