import { LanguageSwitch } from '@/components/console/language-switch';
import { PortalEntry } from '@/components/portal/portal-entry';
import { getT } from '@/lib/i18n/server';

export const dynamic = 'force-dynamic';

export async function generateMetadata() {
  return { title: (await getT())('portal.title') };
}

/**
 * Where a portal link lands: the token is in the URL's fragment, which only this page's script
 * reads (a mail scanner fetching the link consumes nothing), and hands to the API once. Also where
 * an ended session is told so (`?encerrada=1`), and a partner who signed out (`?saiu=1`).
 */
export default async function PortalEntryPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { encerrada, saiu } = await searchParams;
  const t = await getT();
  return (
    <div className="flex min-h-screen flex-col">
      <div className="flex justify-end px-4 py-3 sm:px-6">
        <LanguageSwitch />
      </div>
      <main id="main" className="flex flex-1 items-start justify-center px-4 pt-8 pb-16 sm:pt-16">
        <div className="w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="text-xl font-semibold">{t('portal.title')}</h1>
          <PortalEntry notice={saiu === '1' ? 'signed-out' : encerrada === '1' ? 'ended' : undefined} />
        </div>
      </main>
    </div>
  );
}
