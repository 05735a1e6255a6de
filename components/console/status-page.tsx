import { buttonClasses } from '@/components/ui/button-classes';
import { getT } from '@/lib/i18n/server';
import type { MessageKey } from '@/lib/i18n';

type StatusProps = { title: MessageKey; body: MessageKey };

/** What happened (such as 403 or 404), and the way back to the start. */
export async function StatusMessage({ title, body }: StatusProps) {
  const t = await getT();
  return (
    <div className="mx-auto flex max-w-xl flex-col items-start gap-4 py-10">
      <h1 className="text-2xl font-semibold">{t(title)}</h1>
      <p className="text-slate-700">{t(body)}</p>
      {/* A plain link, not next/link: the way out of an error is a fresh load, and next/link here put a
          second copy of its runtime on every console page (the header's copy is bundled with it). */}
      {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- see above */}
      <a href="/" className={buttonClasses('secondary')}>
        {t('forbidden.home')}
      </a>
    </div>
  );
}

/** A whole-page answer outside the console's layout: the message as the page's only landmark. */
export function StatusPage(props: StatusProps) {
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-6 sm:px-6">
      <StatusMessage {...props} />
    </main>
  );
}
