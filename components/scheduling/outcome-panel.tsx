'use client';
import { lazy } from 'react';
import { AfterHydration } from '@/components/ui/after-hydration';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/lib/i18n/client';
import type { OutcomeState } from './outcome-state';

/** The reservation workspace holds the state this panel shows (its type lives apart, so the lazy details need not import the panel). */
export type { OutcomeState };

function Loading() {
  const t = useT();
  return <Spinner label={t('outcome.pending')} />;
}

// What an answer looks like arrives with the first request, not with the page.
const OutcomeContent = lazy(() => import('./outcome-details').then((module) => ({ default: module.OutcomeContent })));

/**
 * The answer of the last request: HTTP status, CODIGO_P with its §7.2 meaning, the four response
 * fields, and for a fresh reservation the one-click preparation of its release.
 */
export function OutcomePanel({ outcome, onPrepareRelease }: { outcome?: OutcomeState; onPrepareRelease: (token: string) => void }) {
  const t = useT();
  return (
    <Card title={t('outcome.title')} titleId="outcome-title">
      <div
        aria-live="polite"
        data-testid="outcome"
        data-kind={outcome?.kind}
        data-codigo={outcome?.kind === 'codigo' ? outcome.codigo : undefined}
      >
        {outcome ? (
          <AfterHydration fallback={<Loading />}>
            <OutcomeContent outcome={outcome} onPrepareRelease={onPrepareRelease} />
          </AfterHydration>
        ) : (
          <p className="text-sm text-slate-600">{t('outcome.empty')}</p>
        )}
      </div>
    </Card>
  );
}
