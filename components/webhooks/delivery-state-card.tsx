'use client';
import { useFormContext } from '@/components/ui/form-library';
import { Alert } from '@/components/ui/alert';
import { Card } from '@/components/ui/card';
import { Switch } from '@/components/ui/switch';
import { registerChecked } from '@/lib/client/register-shown';
import { useLocale, useT } from '@/lib/i18n/client';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';
import type { WebhookDetail } from '@/lib/webhooks/configurations/contract';
import type { WebhookFormValues } from './webhook-form-values';
import { DeliveryControlsFields } from './delivery-controls-fields';

/**
 * Whether events are delivered to this configuration, saved with the form (`ativo` on the PUT), and
 * why deliveries stopped when the server switched them off (a 410 Gone, or failing for days), or
 * are paused while the receiver looks down (its circuit, lib/webhooks/delivery/circuit.ts); then
 * how fast and in what order they go (the delivery controls).
 */
export function DeliveryStateCard({ config }: { config: WebhookDetail }) {
  const t = useT();
  const locale = useLocale();
  const form = useFormContext<WebhookFormValues>();
  const stopped = config.desativacao;
  const circuit = config.circuito;
  const when = (iso: string) => brasiliaDateTime(iso, locale);
  return (
    <Card title={t('delivery.stateTitle')} titleId="delivery-state-title">
      {circuit && !stopped ? (
        <Alert
          tone="warning"
          title={t(circuit.estado === 'aberto' ? 'delivery.circuitOpenTitle' : 'delivery.circuitProbeTitle')}
          className="mb-4"
        >
          {t(circuit.estado === 'aberto' ? 'delivery.circuitOpen' : 'delivery.circuitProbe', {
            count: circuit.falhasSeguidas,
            since: when(circuit.desde),
            when: when(circuit.proximaTentativa),
          })}
        </Alert>
      ) : null}
      {stopped ? (
        <Alert tone="warning" title={t('delivery.disabledTitle')} className="mb-4">
          {t(`delivery.disabledReason.${stopped.motivo}`, {
            when: brasiliaDateTime(stopped.em, locale),
          })}
        </Alert>
      ) : null}
      <div className="flex items-start gap-3">
        <Switch id="ativo" aria-describedby="ativo-description" {...registerChecked(form, 'ativo')} className="mt-0.5" />
        <div>
          <label htmlFor="ativo" className="block cursor-pointer text-sm font-medium text-slate-900">
            {t('delivery.enabled')}
          </label>
          <p id="ativo-description" className="text-sm text-slate-600">
            {t('delivery.enabledHelp')}
          </p>
        </div>
      </div>
      <DeliveryControlsFields />
    </Card>
  );
}
