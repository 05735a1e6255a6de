import 'server-only';
import { notFound } from 'next/navigation';
import { PrefetchedQueries } from '@/components/console/prefetched-queries';
import { readForPage, type PageCaller } from '@/lib/api/page-reads';
import { loadedWebhook, webhookKeys } from '@/lib/client/webhook-query-keys';
import { env } from '@/lib/config/env';
import { prefetchedAnswers } from '@/lib/console/prefetch';
import { Refusal } from '@/lib/errors/refusal';
import { bodySettings } from '@/lib/http/body-settings';
import { OPERATOR_TENANT } from '@/lib/webhooks/events/operational';
import { EventToggles } from './event-toggles';
import { OperationalEvents } from './operational-events';
import { WebhookEditor } from './webhook-editor';
import { WebhookIdentity } from './webhook-identity';

/**
 * One configuration's page, on the console (staff) and in the partner portal (its tenant's) alike:
 * the editor, with the configuration and the first page of its delivery log read on the server by
 * running the API's own operations for the page's caller (lib/api/page-reads.ts), so the page
 * arrives with its content, under the keys the editor's queries read.
 *
 * A configuration the caller may not see (another tenant's, or no such id) is a real 404, the same
 * for both, before anything renders. Any other refusal of the first read (the database away for a
 * moment) is left to the editor, which asks the API itself and shows that answer.
 */
export async function WebhookPage({ id, caller, portal = false }: { id: string; caller: PageCaller; portal?: boolean }) {
  const detail = await readForPage('getWebhookConfiguration', caller, { params: { id } }).catch((error: unknown) => {
    if (error instanceof Refusal && error.kind === 'not-found') notFound();
    return { error };
  });
  const config = 'error' in detail ? undefined : detail.body;
  const answers = await prefetchedAnswers([
    {
      queryKey: webhookKeys.detail(id),
      // The refusal as the load's own, so it is left to the editor, which asks the API and shows the answer.
      load: () => {
        if ('error' in detail) throw detail.error;
        return Promise.resolve(loadedWebhook(detail.body, detail.headers));
      },
    },
    {
      queryKey: webhookKeys.deliveries(id, ''),
      load: async () => (await readForPage('listDeliveries', caller, { params: { id } })).body,
    },
  ]);
  return (
    <PrefetchedQueries answers={answers}>
      {/* The URL policy the PUT applies, so the form checks a URL as the server will. */}
      <WebhookEditor
        id={id}
        retentionDays={env().WEBHOOK_RETENTION_DAYS}
        urlPolicy={bodySettings().urlPolicy}
        // The identity card is the server's: what the stored configuration says, which no save changes.
        identity={config ? <WebhookIdentity config={config} /> : null}
        // The operator's own configuration receives the operational events, not the partners' five.
        events={config?.usuarioId === OPERATOR_TENANT ? <OperationalEvents /> : <EventToggles portal={portal} />}
      />
    </PrefetchedQueries>
  );
}
