'use client';
import type { EditorSectionId } from './editor-sections';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { ProblemMessage } from '@/components/console/problem-message';
import { apiJson } from '@/lib/client/api';
import { apiPath, getWebhookSecret, rotateWebhookSecret } from '@/lib/api/routes';
import { useT } from '@/lib/i18n/client';
import { useSurface } from '@/components/console/surface';
import { useApiCaller } from '@/lib/client/api-base';

/** The configuration's signing secret: hidden until asked for, copyable, rotated after a confirmation. */
export function SigningSecret({ id }: { id: string }) {
  const t = useT();
  // A read-only portal session is refused the secret (it could sign messages as this service).
  if (useSurface().readOnly)
    return (
      <Card id={'segredo' satisfies EditorSectionId} title={t('delivery.secretTitle')} titleId="secret-title">
        <p className="text-sm text-slate-600">{t('portal.secretReadOnly')}</p>
      </Card>
    );
  return <SecretControls id={id} />;
}

function SecretControls({ id }: { id: string }) {
  const t = useT();
  const api = useApiCaller();
  const [secret, setSecret] = useState<string | undefined>();
  const [rotated, setRotated] = useState(false);
  const reveal = useMutation({
    mutationFn: async () => (await apiJson<{ segredo: string }>(api, apiPath(getWebhookSecret, { id }))).body.segredo,
    onSuccess: setSecret,
  });
  const rotate = useMutation({
    mutationFn: async () =>
      (await apiJson<{ segredo: string }>(api, apiPath(rotateWebhookSecret, { id }), { method: 'POST' })).body.segredo,
    onSuccess: (value) => {
      setSecret(value);
      setRotated(true);
    },
  });
  const error = reveal.error ?? rotate.error;
  return (
    <Card
      id={'segredo' satisfies EditorSectionId}
      title={t('delivery.secretTitle')}
      titleId="secret-title"
      description={t('delivery.secretHelp')}
    >
      <div className="flex flex-wrap items-center gap-2">
        <code className="rounded bg-slate-100 px-2 py-1 font-mono text-sm break-all text-slate-900" data-testid="signing-secret">
          {secret ?? 'whsec_••••••••••••'}
        </code>
        {secret ? (
          <>
            <Button variant="secondary" size="sm" onClick={() => setSecret(undefined)}>
              {t('common.hide')}
            </Button>
            <CopyButton value={secret} label={t('common.copy')} copiedLabel={t('common.copied')} />
          </>
        ) : (
          <Button variant="secondary" size="sm" onClick={() => reveal.mutate()} disabled={reveal.isPending}>
            {t('delivery.revealSecret')}
          </Button>
        )}
        <Button
          variant="secondary"
          size="sm"
          disabled={rotate.isPending}
          onClick={() => {
            if (window.confirm(t('delivery.rotateConfirm'))) rotate.mutate();
          }}
        >
          {t('delivery.rotateSecret')}
        </Button>
      </div>
      <div role="status" aria-live="polite" className="mt-2 text-sm text-slate-700 empty:mt-0">
        {rotated ? t('delivery.rotated') : null}
      </div>
      {error ? <ProblemMessage error={error} /> : null}
    </Card>
  );
}
