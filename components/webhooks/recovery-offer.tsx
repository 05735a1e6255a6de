'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ProblemMessage } from '@/components/console/problem-message';
import { apiJson } from '@/lib/client/api';
import { apiPath, recoverDeliveries } from '@/lib/api/routes';
import { useT } from '@/lib/i18n/client';
import type { WebhookView } from '@/lib/webhooks/configurations/contract';
import { useApiCaller } from '@/lib/client/api-base';

type Offer = NonNullable<WebhookView['recuperacaoSugerida']>;

const offerKey = (id: string) => ['recovery-offer', id] as const;

/**
 * The offer a switch-on's answer made, kept in the query cache rather than the form's state: the
 * save gives the configuration a new ETag, which remounts the form (its key), and the offer went
 * with it before the page could show it.
 */
export function useRecoveryOffer(id: string): [Offer | undefined, (offer: Offer | undefined) => void] {
  const queryClient = useQueryClient();
  const { data } = useQuery<Offer | null>({ queryKey: offerKey(id), queryFn: () => null, initialData: null, enabled: false });
  return [data ?? undefined, (offer) => queryClient.setQueryData<Offer | null>(offerKey(id), offer ?? null)];
}

/**
 * Shown once deliveries are switched back on (issue 45): the receiver is not confirmed until a
 * delivery to it succeeds, and the deliveries skipped while off can be sent again now (the recovery
 * operation, from the oldest skipped one), with one click.
 */
export function RecoveryOffer({ id, offer }: { id: string; offer: Offer }) {
  const t = useT();
  const api = useApiCaller();
  const queryClient = useQueryClient();
  const recover = useMutation({
    mutationFn: async () =>
      (
        await apiJson<{ reenviadas: number }>(api, apiPath(recoverDeliveries, { id }), {
          method: 'POST',
          body: JSON.stringify({ desde: offer.desde }),
        })
      ).body,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhooks', 'deliveries', id] }),
  });
  return (
    <Alert
      tone="info"
      role="status"
      title={t('delivery.recoveryOfferTitle')}
      actions={
        recover.data ? null : (
          <Button variant="secondary" size="sm" onClick={() => recover.mutate()} disabled={recover.isPending}>
            {t('delivery.recoveryOfferAction', { count: offer.ignoradas })}
          </Button>
        )
      }
    >
      {recover.data
        ? t('delivery.recovered', { count: recover.data.reenviadas })
        : t('delivery.recoveryOfferBody', { count: offer.ignoradas })}
      {recover.error ? <ProblemMessage error={recover.error} /> : null}
    </Alert>
  );
}
