'use client';
import { useFormContext, useWatch } from '@/components/ui/form-library';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { registerShown } from '@/lib/client/register-shown';
import { useT } from '@/lib/i18n/client';
import { asciiFormOfUnicodeHost } from '@/lib/webhooks/configurations/url-form';
import type { UrlPolicy } from '@/lib/webhooks/configurations/url-policy';
import { kindOfUrl } from './destination-kind';

/**
 * The receiver's URL, for the create and edit forms (inside their FormProvider), with the punycode
 * form it is saved and called as under a host name with non-Latin letters: `аpple.com` with a
 * Cyrillic а reads like apple.com, its ASCII form `xn--pple-43d.com` does not. Its help says what
 * the server's URL policy accepts, for the destination kind the URL's scheme names (issue 29).
 */
export function UrlField({ error, policy }: { error: string | undefined; policy: UrlPolicy }) {
  const t = useT();
  const form = useFormContext<{ url: string }>();
  const url = useWatch<{ url: string }, 'url'>({ name: 'url' });
  const asciiForm = asciiFormOfUnicodeHost(url ?? '');
  const schemes = kindOfUrl(url ?? '')
    .helpKeys(policy.allowHttp)
    .map((key) => t(key))
    .join(' ');
  const help = policy.allowPrivateTargets ? `${schemes} ${t('webhook.urlHelpPrivateAllowed')}` : schemes;
  return (
    <>
      <Field id="url" label={t('webhook.url')} mono description={help} error={error}>
        <Input
          id="url"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          invalid={Boolean(error)}
          aria-describedby={`${describedBy('url', { description: true, error: Boolean(error) })} url-ascii-form`}
          className="font-mono"
          {...registerShown(form, 'url')}
        />
      </Field>
      <p id="url-ascii-form" aria-live="polite" className="mt-2 text-sm text-amber-800 empty:mt-0">
        {asciiForm ? (
          <>
            {t('webhook.urlPunycode')} <code className="font-mono break-all">{asciiForm}</code>
          </>
        ) : null}
      </p>
    </>
  );
}
