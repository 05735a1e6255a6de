'use client';
import type { EditorSectionId } from './editor-sections';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { ProblemMessage } from '@/components/console/problem-message';
import { ApiProblem, apiJson } from '@/lib/client/api';
import { useDeliveries, useDeliveryDetail } from '@/lib/client/delivery-queries';
import { webhookKeys } from '@/lib/client/webhook-query-keys';
import { apiPath, redeliver, sendTestEvent } from '@/lib/api/routes';
import { useLocale, useT } from '@/lib/i18n/client';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';
import type { AttemptError, Delivery } from '@/lib/webhooks/delivery/contract';
import { DELIVERY_STATUSES, type DeliveryStatus } from '@/lib/webhooks/delivery/fields';
import type { Tone } from '@/components/ui/alert';
import { SigningSecret } from './signing-secret';
import { useSurface } from '@/components/console/surface';
import { RecoverySince } from './recovery-since';
import { useApiCaller } from '@/lib/client/api-base';

/**
 * What happened to the events sent to this configuration: a test event, the signing secret, and
 * the delivery log (filterable, refreshing while something is pending) with each delivery's
 * attempts and a "Reenviar" that sends it again with the same webhook-id.
 */
/**
 * How a delivery reads: its status, except that a pending one whose last attempt failed is a
 * failure waiting for its retry (`nova-tentativa`), not something in progress.
 */
type Situation = DeliveryStatus | 'nova-tentativa';

function situationOf(delivery: Pick<Delivery, 'status' | 'ultimaResposta'>): Situation {
  return delivery.status === 'pendente' && delivery.ultimaResposta?.erro ? 'nova-tentativa' : delivery.status;
}

const SITUATION_TONE: Record<Situation, Tone> = {
  pendente: 'info',
  'nova-tentativa': 'warning',
  entregue: 'success',
  falhou: 'danger',
  ignorada: 'neutral',
  filtrada: 'neutral',
};

export function DeliveriesPanel({ id, retentionDays }: { id: string; retentionDays: number }) {
  const t = useT();
  return (
    <section aria-labelledby="deliveries-title" className="mt-8 flex flex-col gap-5">
      <h2 id="deliveries-title" className="text-xl font-semibold tracking-tight">
        {t('delivery.title')}
      </h2>
      <SigningSecret id={id} />
      <DeliveryLog id={id} retentionDays={retentionDays} />
      <RecoverySince id={id} retentionDays={retentionDays} />
    </section>
  );
}

function useFormatTime() {
  const locale = useLocale();
  return (iso: string) => brasiliaDateTime(iso, locale, { seconds: true });
}

function DeliveryLog({ id, retentionDays }: { id: string; retentionDays: number }) {
  const t = useT();
  const api = useApiCaller();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const [event, setEvent] = useState('');
  const [openId, setOpenId] = useState<string | undefined>();
  const [testId, setTestId] = useState<string | undefined>();
  const deliveries = useDeliveries(id, status, event.trim());
  const { readOnly } = useSurface();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['webhooks', 'deliveries', id] });
  useHealthFollowsLog(id, deliveries.data);

  const sendTest = useMutation({
    mutationFn: async () => (await apiJson<{ id: string }>(api, apiPath(sendTestEvent, { id }), { method: 'POST' })).body,
    onSuccess: ({ id: deliveryId }) => {
      setTestId(deliveryId);
      void refresh();
    },
  });
  const testDelivery = deliveries.data?.find((delivery) => delivery.id === testId);

  return (
    <Card
      id={'entregas' satisfies EditorSectionId}
      title={t('delivery.logTitle')}
      titleId="delivery-log-title"
      description={`${t('delivery.logHelp')} ${t('delivery.retention', { days: retentionDays })}`}
      actions={
        readOnly ? undefined : (
          <Button variant="secondary" size="sm" onClick={() => sendTest.mutate()} disabled={sendTest.isPending}>
            {t('delivery.sendTest')}
          </Button>
        )
      }
    >
      <div role="status" aria-live="polite" className="mb-3 text-sm empty:mb-0">
        {sendTest.isError ? <ProblemMessage error={sendTest.error} /> : null}
        {testId ? (
          <span data-testid="test-outcome">
            {testDelivery
              ? t(`delivery.testOutcome.${situationOf(testDelivery)}`, { detail: responseSummary(testDelivery, t) })
              : t('delivery.testSent')}
          </span>
        ) : null}
      </div>
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <label htmlFor="delivery-status" className="text-sm font-medium text-slate-900">
          {t('delivery.filter')}
        </label>
        <select
          id="delivery-status"
          value={status}
          onChange={(event) => setStatus(event.target.value as DeliveryStatus | '')}
          className="rounded border border-slate-300 bg-white px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <option value="">{t('delivery.filterAll')}</option>
          {DELIVERY_STATUSES.map((value) => (
            <option key={value} value={value}>
              {t(`delivery.status.${value}`)}
            </option>
          ))}
        </select>
        <label htmlFor="delivery-event" className="text-sm font-medium text-slate-900">
          {t('delivery.eventFilter')}
        </label>
        <input
          id="delivery-event"
          type="search"
          value={event}
          maxLength={100}
          onChange={(change) => setEvent(change.target.value)}
          // Short enough to show whole in the box; the full hint is the line below it.
          placeholder={t('delivery.eventFilterPlaceholder')}
          aria-describedby="delivery-event-help"
          className="w-56 max-w-full rounded border border-slate-300 bg-white px-2 py-1 font-mono text-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
        />
        {deliveries.isFetching ? <Spinner label={t('common.loading')} /> : null}
        <span id="delivery-event-help" className="basis-full text-xs text-slate-600">
          {t('delivery.eventFilterHelp')}
        </span>
      </div>
      {deliveries.isError ? <ProblemMessage error={deliveries.error} /> : null}
      {deliveries.data && deliveries.data.length === 0 ? (
        <p className="text-sm text-slate-600">{t(status || event.trim() ? 'delivery.noneMatching' : 'delivery.empty')}</p>
      ) : null}
      <ul className="divide-y divide-slate-200" data-testid="delivery-list">
        {deliveries.data?.map((delivery) => (
          <DeliveryRow
            key={delivery.id}
            configId={id}
            delivery={delivery}
            open={openId === delivery.id}
            onToggle={() => setOpenId(openId === delivery.id ? undefined : delivery.id)}
            onResent={refresh}
          />
        ))}
      </ul>
    </Card>
  );
}

/**
 * An attempt that lands in the log changes the health figures: each of their windows is asked again
 * then, not at its next minute's refresh. Otherwise a window fetched before a test event's attempt
 * (24 hours: 3 delivered) and one fetched after it (7 days: 4) disagreed on the same page.
 */
function useHealthFollowsLog(id: string, deliveries: Delivery[] | undefined) {
  const queryClient = useQueryClient();
  const attempts = deliveries?.map((delivery) => `${delivery.id}:${delivery.tentativas}:${delivery.status}`).join(' ');
  const seen = useRef(attempts);
  useEffect(() => {
    if (attempts === seen.current) return;
    const first = seen.current === undefined;
    seen.current = attempts;
    if (!first) void queryClient.invalidateQueries({ queryKey: webhookKeys.healthOf(id) });
  }, [attempts, id, queryClient]);
}

type T = ReturnType<typeof useT>;

/** What an attempt got: the receiver's HTTP status, why it failed, or a broker's confirmation (no status, no error). */
function answerOf(attempt: { status: number | null; erro: AttemptError | null }, t: T) {
  if (attempt.status !== null) return `HTTP ${attempt.status}`;
  return attempt.erro ? t(`delivery.error.${attempt.erro}`) : t('delivery.brokerConfirmed');
}

function responseSummary(delivery: Pick<Delivery, 'ultimaResposta'>, t: T): string {
  const last = delivery.ultimaResposta;
  if (!last) return t('delivery.noAttempt');
  return `${answerOf(last, t)} · ${last.duracaoMs} ms`;
}

function DeliveryRow({
  configId,
  delivery,
  open,
  onToggle,
  onResent,
}: {
  configId: string;
  delivery: Delivery;
  open: boolean;
  onToggle: () => void;
  onResent: () => Promise<void>;
}) {
  const t = useT();
  const api = useApiCaller();
  const formatTime = useFormatTime();
  const resend = useMutation({
    mutationFn: () => apiJson(api, apiPath(redeliver, { id: configId, entregaId: delivery.id }), { method: 'POST' }),
    onSuccess: onResent,
  });
  const { readOnly } = useSurface();
  const detailId = `delivery-${delivery.id}`;
  const situation = situationOf(delivery);
  return (
    <li className="py-3" data-delivery-id={delivery.id}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Badge tone={SITUATION_TONE[situation]}>{t(`delivery.status.${situation}`)}</Badge>
        <span className="font-mono text-sm text-slate-900">{delivery.tipo}</span>
        <span className="text-sm text-slate-600">{formatTime(delivery.criadaEm)}</span>
        <span className="text-sm text-slate-600">
          {delivery.tentativas === 0
            ? t('delivery.noAttempt')
            : `${t('delivery.attempts', { count: delivery.tentativas })} · ${responseSummary(delivery, t)}`}
        </span>
        {delivery.emAndamento ? <span className="text-sm text-indigo-700">{t('delivery.inFlight')}</span> : null}
        <span className="ml-auto flex gap-2">
          <Button variant="secondary" size="sm" onClick={onToggle} aria-expanded={open} aria-controls={detailId}>
            {open ? t('delivery.hideDetail') : t('delivery.showDetail')}
          </Button>
          {readOnly ? null : (
            <Button variant="secondary" size="sm" onClick={() => resend.mutate()} disabled={resend.isPending}>
              {t('delivery.resend')}
            </Button>
          )}
        </span>
      </div>
      <p className="mt-1 font-mono text-xs break-all text-slate-600">
        {delivery.idEvento === delivery.eventoId
          ? t('delivery.eventId', { eventId: delivery.eventoId })
          : t('delivery.eventIds', { eventId: delivery.eventoId, idEvento: delivery.idEvento })}
      </p>
      {delivery.proximaTentativaEm ? (
        <p className="mt-1 text-xs text-slate-600">
          {t(delivery.aguardando ? `delivery.waiting.${delivery.aguardando}` : 'delivery.nextAttempt', {
            when: formatTime(delivery.proximaTentativaEm),
          })}
        </p>
      ) : null}
      {delivery.retidaPor?.desde ? (
        <p className="mt-1 text-xs text-slate-600">
          {t('delivery.heldBy', {
            idEvento: delivery.retidaPor.idEvento,
            since: formatTime(delivery.retidaPor.desde),
            until: delivery.retidaPor.liberacaoEm ? formatTime(delivery.retidaPor.liberacaoEm) : '',
          })}
        </p>
      ) : null}
      {resend.isError ? (
        <p role="alert" className="mt-1 text-sm text-red-700">
          <ResendProblem error={resend.error} />
        </p>
      ) : null}
      {open ? <DeliveryDetailView configId={configId} deliveryId={delivery.id} elementId={detailId} /> : null}
    </li>
  );
}

/** A redelivery refused because an attempt is in flight (409) gets its own sentence. */
function ResendProblem({ error }: { error: unknown }) {
  const t = useT();
  if (error instanceof ApiProblem && error.status === 409) {
    return <>{t('delivery.inFlightConflict')}</>;
  }
  return <ProblemMessage error={error} />;
}

function DeliveryDetailView({ configId, deliveryId, elementId }: { configId: string; deliveryId: string; elementId: string }) {
  const t = useT();
  const formatTime = useFormatTime();
  const detail = useDeliveryDetail(configId, deliveryId);
  if (detail.isError) return <ProblemMessage error={detail.error} />;
  if (!detail.data) return <Spinner label={t('common.loading')} />;
  const { requisicao, tentativasDetalhadas } = detail.data;
  return (
    <div id={elementId} className="mt-3 flex flex-col gap-3 rounded border border-slate-200 bg-slate-50 p-3 text-sm">
      <div>
        <h3 className="font-medium text-slate-900">{t('delivery.request')}</h3>
        <p className="font-mono text-xs break-all text-slate-700">
          POST {requisicao.url} · webhook-id {deliveryId}
        </p>
        <pre className="mt-1 max-h-48 overflow-auto rounded bg-white p-2 font-mono text-xs whitespace-pre-wrap text-slate-800">
          {requisicao.corpo}
        </pre>
      </div>
      {tentativasDetalhadas.length === 0 ? <p className="text-slate-600">{t('delivery.noAttempt')}</p> : null}
      <ol className="flex flex-col gap-2">
        {tentativasDetalhadas.map((attempt) => (
          <li key={attempt.numero} className="rounded bg-white p-2">
            <p className="font-medium text-slate-900">
              {t('delivery.attemptTitle', { n: attempt.numero, when: formatTime(attempt.em) })} · {answerOf(attempt, t)} ·{' '}
              {attempt.duracaoMs} ms
            </p>
            <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-3 font-mono text-xs text-slate-700">
              {Object.entries(attempt.cabecalhos).map(([name, value]) => (
                <div key={name} className="contents">
                  <dt>{name}</dt>
                  <dd className="break-all">{value}</dd>
                </div>
              ))}
            </dl>
            {attempt.corpo ? (
              <pre className="mt-1 max-h-32 overflow-auto font-mono text-xs whitespace-pre-wrap text-slate-700">{attempt.corpo}</pre>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
