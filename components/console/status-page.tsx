import Link from 'next/link';
import { buttonClasses } from '@/components/ui/button';
import { getT } from '@/lib/i18n/server';
import type { MessageKey } from '@/lib/i18n';

/** A whole-page answer such as 403 or 404: what happened, and the way back to the start. */
export async function StatusPage({ title, body }: { title: MessageKey; body: MessageKey }) {
  const t = await getT();
  return (
    <main id="main" className="mx-auto flex max-w-xl flex-col items-start gap-4 px-4 py-16 sm:px-6">
      <h1 className="text-2xl font-semibold">{t(title)}</h1>
      <p className="text-slate-700">{t(body)}</p>
      <Link href="/" className={buttonClasses('secondary')}>
        {t('forbidden.home')}
      </Link>
    </main>
  );
}
