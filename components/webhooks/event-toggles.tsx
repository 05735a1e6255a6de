'use client';
import { useFormContext } from 'react-hook-form';
import { Card } from '@/components/ui/card';
import { Switch } from '@/components/ui/switch';
import { useT } from '@/lib/i18n/client';
import { catalogueLink } from '@/lib/webhooks/catalogue-link';
import { WEBHOOK_EVENT_FLAGS } from '@/lib/webhooks/fields';
import type { WebhookFormValues } from './webhook-editor';
import { useSurface } from '@/components/console/surface';
import { EVENT_TYPE_OF_FLAG } from '@/lib/webhooks/fields';

/** The five event flags of §6: human name, API name, the one line saying when it fires, and a link to its message in the API reference. */
export function EventToggles() {
  const t = useT();
  const { register } = useFormContext<WebhookFormValues>();
  // In the portal, its own page of the catalogue: the API reference is the console's.
  const portal = useSurface().kind === 'portal';
  return (
    <Card title={t('webhook.events')} titleId="events-title" description={t('webhook.eventsHelp')}>
      <ul className="divide-y divide-slate-200">
        {WEBHOOK_EVENT_FLAGS.map((flag) => (
          <li key={flag} className="flex items-start gap-3 py-3 first:pt-0 last:pb-0">
            <Switch id={flag} aria-describedby={`${flag}-description`} {...register(flag)} className="mt-0.5" />
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
