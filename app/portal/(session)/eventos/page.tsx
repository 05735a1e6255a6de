import { PageHeader } from '@/components/ui/card';
import { Card } from '@/components/ui/card';
import { getT } from '@/lib/i18n/server';
import { requirePartner } from '@/lib/portal/page-session';
import { partnerEventCatalogue } from '@/lib/openapi/webhooks';

export async function generateMetadata() {
  return { title: (await getT())('portal.events.title') };
}

/**
 * The event catalogue's entries for the receiver's developers: each event type a configuration can
 * subscribe to (and the test event), what it means and an example message, from the OpenAPI
 * document's webhooks section (the same text /api/docs shows).
 */
export default async function PortalEvents() {
  const [t] = await Promise.all([getT(), requirePartner()]);
  const entries = partnerEventCatalogue();
  return (
    <>
      <PageHeader title={t('portal.events.title')} description={t('portal.events.intro')} />
      <div className="flex flex-col gap-5">
        {entries.map((entry) => (
          <section key={entry.type} id={entry.type} aria-labelledby={`event-${entry.type}`} className="scroll-mt-4">
            <Card title={<span className="font-mono">{entry.type}</span>} titleId={`event-${entry.type}`} description={entry.description}>
              <p className="mb-2 text-sm font-medium text-slate-900">{t('portal.events.example')}</p>
              <pre
                className="max-h-96 overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-50"
                tabIndex={0}
                aria-label={t('portal.events.exampleOf', { type: entry.type })}
              >
                {JSON.stringify(entry.example, null, 2)}
              </pre>
            </Card>
          </section>
        ))}
      </div>
    </>
  );
}
