'use client';
import { useFormContext } from '@/components/ui/form-library';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { registerChecked, registerShown } from '@/lib/client/register-shown';
import { useT } from '@/lib/i18n/client';
import { MAX_DELIVERIES_PER_SECOND } from '@/lib/webhooks/configurations/fields';

/** The delivery controls' form values (issue 31): the limit as typed (empty: none), the ordering switch. */
export type DeliveryControlsValues = { limiteEntregasPorSegundo: string; entregaOrdenada: boolean };

/** The PUT's fields for what was typed: an empty limit removes it; anything else is the contract's to judge. */
export function deliveryControlsBody({ limiteEntregasPorSegundo, entregaOrdenada }: DeliveryControlsValues) {
  const limit = limiteEntregasPorSegundo.trim();
  return { limiteEntregasPorSegundo: limit === '' ? null : Number(limit), entregaOrdenada };
}

/**
 * A configuration's rate limit and ordered delivery, inside the editor's FormProvider. Both hold
 * across every instance (the shared database keeps them); the help says what each costs.
 */
export function DeliveryControlsFields() {
  const t = useT();
  const form = useFormContext<DeliveryControlsValues>();
  const { formState } = form;
  const error = formState.errors.limiteEntregasPorSegundo?.message;
  return (
    <div className="mt-5 flex flex-col gap-5 border-t border-slate-200 pt-5">
      <Field
        id="limiteEntregasPorSegundo"
        label={t('delivery.rateLimit')}
        mono
        description={t('delivery.rateLimitHelp', { max: MAX_DELIVERIES_PER_SECOND })}
        error={error}
      >
        <Input
          id="limiteEntregasPorSegundo"
          inputMode="numeric"
          autoComplete="off"
          className="max-w-40"
          invalid={Boolean(error)}
          aria-describedby={describedBy('limiteEntregasPorSegundo', { description: true, error: Boolean(error) })}
          {...registerShown(form, 'limiteEntregasPorSegundo')}
        />
      </Field>
      <div className="flex items-start gap-3">
        <Switch
          id="entregaOrdenada"
          aria-describedby="entregaOrdenada-description"
          {...registerChecked(form, 'entregaOrdenada')}
          className="mt-0.5"
        />
        <div>
          <label htmlFor="entregaOrdenada" className="block cursor-pointer font-mono text-sm font-medium text-slate-900">
            {t('delivery.ordered')}
          </label>
          <p id="entregaOrdenada-description" className="text-sm text-slate-600">
            {t('delivery.orderedHelp')}
          </p>
        </div>
      </div>
    </div>
  );
}
