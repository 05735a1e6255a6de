'use client';
import { useState } from 'react';
import { useFieldArray, useFormContext } from '@/components/ui/form-library';
import { Button } from '@/components/ui/button';
import { useSurface } from '@/components/console/surface';
import { Card } from '@/components/ui/card';
import { describedBy, fieldIds } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { registerShown } from '@/lib/client/register-shown';
import { useT } from '@/lib/i18n/client';
import { MAX_WEBHOOK_HEADERS } from '@/lib/webhooks/configurations/header-policy';
import { looksSecret } from '@/lib/webhooks/configurations/header-policy';
import type { WebhookFormValues } from './webhook-form-values';

/**
 * `chave`/`valor` rows. Values of names that look like credentials (looksSecret) stay masked until
 * shown; others are shown; each row has its own toggle either way.
 */
export function HeadersEditor() {
  const t = useT();
  const form = useFormContext<WebhookFormValues>();
  const { control, formState, watch } = form;
  const { fields, append, remove } = useFieldArray({ control, name: 'headers' });
  const { readOnly } = useSurface();
  // Rows whose visibility was toggled away from their default.
  const [shown, setShown] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setShown((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const listError = formState.errors.headers?.root?.message ?? formState.errors.headers?.message;

  return (
    <Card
      title={
        <>
          {t('webhook.headersTitle')}
          {/* The API name only where it adds something: "Cabeçalhos (headers)", but not "Headers (headers)". */}
          {t('webhook.headersTitle').toLowerCase() === t('webhook.headers') ? null : (
            <span className="font-mono text-sm font-normal text-slate-600"> ({t('webhook.headers')})</span>
          )}
        </>
      }
      titleId="headers-title"
      description={t('webhook.headersHelp')}
      actions={
        readOnly ? undefined : (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => append({ chave: '', valor: '' })}
            disabled={fields.length >= MAX_WEBHOOK_HEADERS}
          >
            + {t('webhook.addHeader')}
          </Button>
        )
      }
    >
      {fields.length === 0 ? <p className="text-sm text-slate-600">{t('webhook.headersEmpty')}</p> : null}
      {listError ? (
        <p className="mb-2 text-xs font-medium text-red-700" role="alert">
          {listError}
        </p>
      ) : null}
      <ol className="flex flex-col gap-3">
        {fields.map((field, index) => {
          const n = index + 1;
          const keyId = `headers-${index}-chave`;
          const valueId = `headers-${index}-valor`;
          const keyError = formState.errors.headers?.[index]?.chave?.message;
          const valueError = formState.errors.headers?.[index]?.valor?.message;
          const visible = looksSecret(watch(`headers.${index}.chave`) ?? '') === shown.has(field.id);
          return (
            <li
              key={field.id}
              className="grid grid-cols-1 gap-2 rounded-md border border-slate-200 bg-slate-50 p-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto] sm:items-start"
            >
              <div className="flex min-w-0 flex-col gap-1">
                <label htmlFor={keyId} className="font-mono text-xs text-slate-700">
                  {t('webhook.headerKey')}
                </label>
                <Input
                  id={keyId}
                  aria-label={t('webhook.headerKeyLabel', { n })}
                  className="font-mono"
                  autoComplete="off"
                  spellCheck={false}
                  invalid={Boolean(keyError)}
                  aria-describedby={describedBy(keyId, { error: Boolean(keyError) })}
                  {...registerShown(form, `headers.${index}.chave`)}
                />
                {keyError ? (
                  <p id={fieldIds(keyId).error} className="text-xs font-medium text-red-700">
                    {keyError}
                  </p>
                ) : null}
              </div>
              <div className="flex min-w-0 flex-col gap-1">
                <label htmlFor={valueId} className="font-mono text-xs text-slate-700">
                  {t('webhook.headerValue')}
                </label>
                <div className="flex gap-2">
                  <Input
                    id={valueId}
                    aria-label={t('webhook.headerValueLabel', { n })}
                    type={visible ? 'text' : 'password'}
                    className="font-mono"
                    autoComplete="off"
                    data-1p-ignore
                    data-lpignore="true"
                    spellCheck={false}
                    invalid={Boolean(valueError)}
                    aria-describedby={describedBy(valueId, { error: Boolean(valueError) })}
                    {...registerShown(form, `headers.${index}.valor`)}
                  />
                  <Button
                    variant="secondary"
                    className="w-20"
                    aria-pressed={visible}
                    aria-label={visible ? t('webhook.hideValue', { n }) : t('webhook.showValue', { n })}
                    onClick={() => toggle(field.id)}
                  >
                    {visible ? t('common.hide') : t('common.show')}
                  </Button>
                </div>
                {valueError ? (
                  <p id={fieldIds(valueId).error} className="text-xs font-medium text-red-700">
                    {valueError}
                  </p>
                ) : null}
              </div>
              {readOnly ? null : (
                <div className="flex sm:pt-5">
                  <Button variant="danger" aria-label={t('webhook.removeHeader', { n })} onClick={() => remove(index)}>
                    <span aria-hidden>✕</span>
                    <span className="sm:sr-only">{t('webhook.removeHeader', { n })}</span>
                  </Button>
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
