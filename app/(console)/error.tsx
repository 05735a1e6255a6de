'use client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useT } from '@/lib/i18n/client';

/** Any console page that fails to render: say so plainly and offer to try again. */
export default function ConsoleError({ reset }: { error: Error; reset: () => void }) {
  const t = useT();
  return (
    <Alert
      tone="danger"
      role="alert"
      title={t('error.title')}
      actions={
        <Button variant="secondary" onClick={reset}>
          {t('common.retry')}
        </Button>
      }
    >
      {t('error.body')}
    </Alert>
  );
}
