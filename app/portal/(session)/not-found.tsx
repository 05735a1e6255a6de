import { buttonClasses } from '@/components/ui/button-classes';
import { getT } from '@/lib/i18n/server';

/** Inside the portal: not found (another tenant's id answers exactly like an unknown one), and the way back to the portal, never the console. */
export default async function PortalNotFound() {
  const t = await getT();
  return (
    <div className="mx-auto flex max-w-xl flex-col items-start gap-4 py-10">
      <h1 className="text-2xl font-semibold">{t('notFound.title')}</h1>
      <p className="text-slate-700">{t('portal.notFound')}</p>
      <a href="/portal" className={buttonClasses('secondary')}>
        {t('portal.backHome')}
      </a>
    </div>
  );
}
