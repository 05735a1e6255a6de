'use client';
import { Link } from '@/components/ui/link';
import { useEffect, useState } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useT } from '@/lib/i18n/client';
import { useWebhookList } from '@/lib/client/webhook-queries';
import type { WebhookView } from '@/lib/webhooks/configurations/contract';
import { WEBHOOK_EVENT_FLAGS } from '@/lib/webhooks/events/types';
import { OPERATOR_TENANT } from '@/lib/webhooks/events/operational';
import { Badge } from '@/components/ui/badge';
import { QueryStatus } from '@/components/console/query-status';
import { cn } from '@/components/ui/cn';
import { Form } from '@/components/ui/form';
import { configHref, useSurface } from '@/components/console/surface';

const SEARCH_DELAY_MS = 250;

export function WebhookList() {
  const t = useT();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const list = useWebhookList(search);

  return (
    <div className="flex flex-col gap-4">
      <Form role="search" onSubmit={(event) => (event.preventDefault(), setSearch(typed.trim()))} className="max-w-xl">
        <Field id="webhook-search" label={t('webhooks.search')} description={t('webhooks.searchHint')}>
          <Input
            id="webhook-search"
            type="search"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            placeholder={t('webhooks.searchPlaceholder')}
            aria-describedby="webhook-search-description"
            autoComplete="off"
          />
        </Field>
      </Form>

      <div aria-live="polite">
        <QueryStatus query={list} empty={t('webhooks.empty')}>
          {(items) => (
            <>
              <p className="mb-3 text-sm text-slate-600">{t('webhooks.count', { count: items.length })}</p>
              <ul className="flex flex-col gap-3" data-testid="webhook-list">
                {items.map((config) => (
                  <WebhookRow key={config.id} config={config} />
                ))}
              </ul>
            </>
          )}
        </QueryStatus>
      </div>
    </div>
  );
}

function WebhookRow({ config }: { config: WebhookView }) {
  const t = useT();
  const surface = useSurface();
  const on = WEBHOOK_EVENT_FLAGS.filter((flag) => config[flag]).length;
  return (
    <li className="rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm sm:px-5" data-webhook-id={config.id}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <p className="font-mono text-sm font-medium break-all text-slate-900">
            {config.url}
            {config.ativo ? null : (
              <Badge tone="warning" className="ml-2 align-middle font-sans">
                {t('webhooks.disabled')}
              </Badge>
            )}
          </p>
          {config.usuarioId === OPERATOR_TENANT ? (
            <p className="mt-1 text-xs text-slate-600">
              <Badge tone="info" className="mr-2 align-middle">
                {t('webhooks.operator')}
              </Badge>
              {t('webhooks.operatorHelp')}
            </p>
          ) : null}
          {/* Each value under its own name, a UUID on one line (it never breaks mid-string, even at 390 px). */}
          <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-slate-600">
            <div className="flex min-w-0 gap-1">
              <dt>{t('webhook.usuarioId')}</dt>
              <dd className="font-mono whitespace-nowrap text-slate-800">{config.usuarioId}</dd>
            </div>
            <div className="flex min-w-0 gap-1">
              <dt>{t('webhook.clientId')}</dt>
              <dd className="font-mono break-all text-slate-800">{config.clientId ?? t('webhooks.noClient')}</dd>
            </div>
          </dl>
        </div>
        <Link
          href={configHref(surface, config.id)}
          className={buttonClasses('secondary', 'sm')}
          aria-label={t('webhooks.editLabel', { url: config.url })}
        >
          {t('webhooks.edit')}
        </Link>
      </div>
      <ul className="mt-3 flex flex-wrap gap-1.5" aria-label={t('webhooks.eventsSummary', { on, total: WEBHOOK_EVENT_FLAGS.length })}>
        {WEBHOOK_EVENT_FLAGS.map((flag) => (
          <li
            key={flag}
            className={cn(
              'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs ring-1 ring-inset',
              config[flag] ? 'bg-emerald-50 text-emerald-900 ring-emerald-300' : 'bg-slate-50 text-slate-500 ring-slate-200',
            )}
            title={flag}
          >
            <span aria-hidden>{config[flag] ? '●' : '○'}</span>
            {t(`webhooks.event.${flag}`)}
            <span className="sr-only">: {config[flag] ? t('webhooks.eventOn') : t('webhooks.eventOff')}</span>
          </li>
        ))}
      </ul>
    </li>
  );
}
