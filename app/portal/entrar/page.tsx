import { EntryCard, EntryFrame } from '@/components/auth/entry-frame';
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
    <EntryFrame>
      <EntryCard title={t('portal.title')} className="w-full max-w-md">
        <PortalEntry notice={saiu === '1' ? 'signed-out' : encerrada === '1' ? 'ended' : undefined} />
      </EntryCard>
    </EntryFrame>
  );
}
