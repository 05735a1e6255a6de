'use client';
import type { EditorSectionId } from './editor-sections';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Form } from '@/components/ui/form';
import { ProblemMessage } from '@/components/console/problem-message';
import { useSurface } from '@/components/console/surface';
import { apiJson } from '@/lib/client/api';
import { apiPath, recoverDeliveries } from '@/lib/api/routes';
import { useT } from '@/lib/i18n/client';
import { brasiliaTypedToIso } from '@/lib/i18n/brasilia-time';
import { useApiCaller } from '@/lib/client/api-base';

/**
 * "Recuperar desde": sends again every failed or skipped delivery created since a date, for a
 * receiver back after an outage (the recovery operation). Hidden from a read-only portal session.
 */
export function RecoverySince({ id, retentionDays }: { id: string; retentionDays: number }) {
  const t = useT();
  const api = useApiCaller();
  const queryClient = useQueryClient();
  const { readOnly } = useSurface();
  const [since, setSince] = useState('');
  const recover = useMutation({
    mutationFn: async (desde: string) =>
      (
        await apiJson<{ reenviadas: number }>(api, apiPath(recoverDeliveries, { id }), {
          method: 'POST',
          body: JSON.stringify({ desde }),
        })
      ).body,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhooks', 'deliveries', id] }),
  });
  if (readOnly) return null;
  // Typed day first, in Brasília time, as every time on the page is (not the browser's date picker, which writes mm/dd/yyyy in an English browser).
  const instant = brasiliaTypedToIso(since);
  return (
    <Card
      id={'recuperacao' satisfies EditorSectionId}
      title={t('delivery.recoverTitle')}
      titleId="recover-title"
      description={t('delivery.recoverHelp', { days: retentionDays })}
    >
      <Form
        onSubmit={(event) => {
          event.preventDefault();
          if (instant) recover.mutate(instant);
        }}
        className="flex flex-wrap items-end gap-3"
      >
        <div className="flex flex-col gap-1">
          <label htmlFor="recover-since" className="text-sm font-medium text-slate-900">
            {t('delivery.recoverSince')}
          </label>
          <p id="recover-since-format" className="text-xs text-slate-600">
            {t('delivery.recoverFormat')}
          </p>
          <Input
            id="recover-since"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            placeholder={t('delivery.recoverPlaceholder')}
            aria-describedby="recover-since-format"
            aria-invalid={since.trim() !== '' && !instant}
            value={since}
            onChange={(event) => setSince(event.target.value)}
            className="w-60 font-mono"
          />
        </div>
        <Button type="submit" variant="secondary" disabled={!instant || recover.isPending}>
          {t('delivery.recover')}
        </Button>
      </Form>
      <div role="status" aria-live="polite" className="mt-2 text-sm text-slate-700 empty:mt-0">
        {recover.data ? t('delivery.recovered', { count: recover.data.reenviadas }) : null}
      </div>
      {recover.error ? <ProblemMessage error={recover.error} /> : null}
    </Card>
  );
}
