import { getT } from '@/lib/i18n/server';

/** The loading state of a console page while its server part renders. */
export async function PageLoading() {
  const t = await getT();
  return (
    <div role="status" aria-live="polite" className="animate-pulse">
      <span className="sr-only">{t('common.loading')}</span>
      <div aria-hidden className="mb-6 h-7 w-64 rounded bg-slate-200" />
      <div aria-hidden className="h-48 rounded-lg border border-slate-200 bg-white" />
    </div>
  );
}
