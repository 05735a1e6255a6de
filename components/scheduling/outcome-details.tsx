'use client';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Spinner } from '@/components/ui/spinner';
import { useRecentReservations } from '@/lib/client/slot-queries';
import { useLocale, useT } from '@/lib/i18n/client';
import type { ReservationOutcomeView } from '@/lib/scheduling/outcome';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';
import type { OutcomeState } from './outcome-state';

/** The Resultado panel's content once a request was attempted; loaded after the form (outcome-panel.tsx). */
export function OutcomeContent({ outcome, onPrepareRelease }: { outcome: OutcomeState; onPrepareRelease: (token: string) => void }) {
  const t = useT();
  switch (outcome.kind) {
    case 'pending':
      return <Spinner label={t('outcome.pending')} />;
    case 'blocked':
      return <Alert tone="warning">{t('outcome.blocked')}</Alert>;
    case 'network':
      return (
        <Alert tone="danger" title={t('outcome.network.title')}>
          {t('outcome.network.body')}
        </Alert>
      );
    default:
      return <OutcomeBody outcome={outcome} onPrepareRelease={onPrepareRelease} />;
  }
}

function StatusLine({ status, tone }: { status: number; tone: ReservationOutcomeView['tone'] }) {
  const t = useT();
  return (
    <p className="mb-3 flex items-center gap-2 text-sm text-slate-700">
      {t('outcome.httpStatus')}
      <Badge tone={tone} className="font-mono">
        HTTP {status}
      </Badge>
    </p>
  );
}

function OutcomeBody({ outcome, onPrepareRelease }: { outcome: ReservationOutcomeView; onPrepareRelease: (token: string) => void }) {
  const t = useT();
  if (outcome.kind === 'validation') {
    return (
      <>
        <StatusLine status={outcome.status} tone={outcome.tone} />
        <Alert tone="danger" title={t('outcome.validation.title')}>
          <p>{t('outcome.validation.body')}</p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {outcome.errors.map((error, index) => (
              <li key={`${error.field}-${index}`}>
                <span className="font-mono font-medium">{error.field || '(body)'}</span>: {error.message}
              </li>
            ))}
          </ul>
        </Alert>
      </>
    );
  }
  if (outcome.kind === 'problem') {
    return (
      <>
        <StatusLine status={outcome.status} tone={outcome.tone} />
        <Alert tone="danger" title={t('outcome.problem.title', { status: outcome.status })}>
          {outcome.status === 403 ? t('forbidden.body') : (outcome.detail ?? t('error.server', { status: outcome.status }))}
        </Alert>
      </>
    );
  }
  const { body } = outcome;
  const title = outcome.kind === 'codigo' ? t(`outcome.code.${outcome.codigo}.title`) : t('outcome.unknownCode');
  const explanation = outcome.kind === 'codigo' ? t(`outcome.code.${outcome.codigo}.body`) : undefined;
  const token = body.TOKEN_RESERVA_P;
  return (
    <>
      <StatusLine status={outcome.status} tone={outcome.tone} />
      <Alert tone={outcome.tone} title={`CODIGO_P ${body.CODIGO_P} — ${title}`}>
        {explanation}
      </Alert>
      <dl className="mt-4 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
        <dt className="font-mono text-slate-600">{t('outcome.codigo')}</dt>
        <dd className="font-mono" data-testid="codigo-p">
          {body.CODIGO_P}
        </dd>
        <dt className="font-mono text-slate-600">{t('outcome.reservado')}</dt>
        <dd data-testid="ie-reservado-p">
          <span className="font-mono">{body.IE_RESERVADO_P}</span>{' '}
          <span className="text-slate-600">({t(`outcome.reservado.${body.IE_RESERVADO_P}`)})</span>
        </dd>
        <dt className="font-mono text-slate-600">{t('outcome.mensagem')}</dt>
        <dd data-testid="mensagem-p">{body.MENSAGEM_P}</dd>
        <dt className="font-mono text-slate-600">{t('outcome.token')}</dt>
        <dd className="flex min-w-0 flex-wrap items-center gap-2">
          {token ? (
            <>
              <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[0.8125rem] break-all" data-testid="token-reserva-p">
                {token}
              </code>
              <CopyButton value={token} label={t('outcome.copyToken')} copiedLabel={t('common.copied')} />
            </>
          ) : (
            <span className="text-slate-500" data-testid="token-reserva-p">
              {t('outcome.tokenEmpty')}
            </span>
          )}
        </dd>
      </dl>
      {outcome.kind === 'codigo' && outcome.codigo === '0' && token ? <HoldExpiry token={token} /> : null}
      {outcome.kind === 'codigo' && outcome.codigo === '0' && token ? (
        <div className="mt-4 border-t border-slate-200 pt-4">
          <Button variant="secondary" onClick={() => onPrepareRelease(token)}>
            {t('outcome.prepareRelease')}
          </Button>
        </div>
      ) : null}
    </>
  );
}

/**
 * When the hold just made lapses. The procedure's answer has no such field, so it is read from the
 * recent-reservations list (refreshed after every reservation); nothing shows for a back-end whose
 * holds do not lapse.
 */
function HoldExpiry({ token }: { token: string }) {
  const t = useT();
  const locale = useLocale();
  const expiresAt = useRecentReservations().data?.find((reservation) => reservation.token === token)?.expiraEm;
  if (!expiresAt) return null;
  return (
    <p className="mt-3 text-sm text-slate-700" data-testid="outcome-hold-expires">
      {t('outcome.holdExpires', { time: brasiliaDateTime(expiresAt, locale) })}
    </p>
  );
}
