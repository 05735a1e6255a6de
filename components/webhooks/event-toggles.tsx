import { Card } from '@/components/ui/card';
import { getT } from '@/lib/i18n/server';
import { catalogueLink } from '@/lib/webhooks/events/catalogue-link';
import { WEBHOOK_EVENT_FLAGS, EVENT_TYPE_OF_FLAG } from '@/lib/webhooks/events/types';
import { EventSwitch } from './event-switch';

/**
 * The five event flags of §6: human name, API name, the one line saying when it fires, and a link
 * to its message: in the console the API reference, in the partner portal its own catalogue page.
 * A server component: only the switches are the browser's (EventSwitch, inside the form's
 * FormProvider); the page hands this card to the form.
 */
export async function EventToggles({ portal = false }: { portal?: boolean }) {
  const t = await getT();
  return (
    <Card title={t('webhook.events')} titleId="events-title" description={t('webhook.eventsHelp')}>
      <ul className="divide-y divide-slate-200">
        {WEBHOOK_EVENT_FLAGS.map((flag) => (
          <li key={flag} className="flex items-start gap-3 py-3 first:pt-0 last:pb-0">
            <EventSwitch flag={flag} />
            <div className="min-w-0">
              {/* The human name first; the API field name beneath it, as the contract spells it. */}
              <label htmlFor={flag} className="block cursor-pointer text-sm font-medium text-slate-900">
                {t(`webhooks.event.${flag}`)} <span className="block font-mono text-xs font-normal break-all text-slate-600">{flag}</span>
              </label>
              <p id={`${flag}-description`} className="text-sm text-slate-600">
                {t(`webhook.event.${flag}`)}{' '}
                <a
                  href={portal ? `/portal/eventos#${EVENT_TYPE_OF_FLAG[flag]}` : catalogueLink(flag)}
                  className="font-medium text-indigo-700 underline"
                  target={portal ? undefined : '_blank'}
                  rel="noopener"
                >
                  {t('webhook.eventPayload')}
                  <span className="sr-only">: {t(`webhooks.event.${flag}`)}</span>
                </a>
              </p>
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}
