'use client';
import { useFormContext, useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field, describedBy } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { useT } from '@/lib/i18n/client';
import type { MessageKey } from '@/lib/i18n';
import { IE_LADO, IE_OPCAO, NM_USUARIO_MAX, TOKEN_RESERVA_MAX } from '@/lib/scheduling/contract';
import type { ReservationFormValues } from '@/lib/scheduling/reservation-form-values';

type Name = keyof ReservationFormValues;
type Need = 'required' | 'optional';

/** One text field of §2.2, labelled with its API name and a short description. */
function TextField({ name, need = 'required', numeric = false, maxLength }: { name: Name; need?: Need; numeric?: boolean; maxLength?: number }) {
  const t = useT();
  const { register, formState } = useFormContext<ReservationFormValues>();
  const error = formState.errors[name]?.message;
  const id = `field-${name}`;
  return (
    <Field id={id} label={name} mono badge={t(`common.${need}`)} description={t(`scheduling.field.${name}` as MessageKey)} error={error}>
      <Input
        id={id}
        inputMode={numeric ? 'numeric' : undefined}
        autoComplete="off"
        spellCheck={false}
        maxLength={maxLength}
        invalid={Boolean(error)}
        aria-describedby={describedBy(id, { description: true, error: Boolean(error) })}
        className="font-mono"
        {...register(name)}
      />
    </Field>
  );
}

function SelectField({ name, options, need = 'required' }: { name: 'ieOpcao' | 'ieLado'; options: { value: string; label: string }[]; need?: Need }) {
  const t = useT();
  const { register, formState } = useFormContext<ReservationFormValues>();
  const error = formState.errors[name]?.message;
  const id = `field-${name}`;
  return (
    <Field id={id} label={name} mono badge={t(`common.${need}`)} description={t(`scheduling.field.${name}`)} error={error}>
      <Select id={id} invalid={Boolean(error)} aria-describedby={describedBy(id, { description: true, error: Boolean(error) })} {...register(name)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
    </Field>
  );
}

function Group({ legend, children }: { legend: string; children: React.ReactNode }) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-3 text-xs font-semibold tracking-wide text-slate-500 uppercase">{legend}</legend>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

export function ReservationForm({ onSubmit, sending, onClear }: { onSubmit: () => void; sending: boolean; onClear: () => void }) {
  const t = useT();
  const ieOpcao = useWatch<ReservationFormValues, 'ieOpcao'>({ name: 'ieOpcao' });
  return (
    <Card title={t('scheduling.formTitle')} titleId="request-title">
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6" aria-labelledby="request-title">
        <Group legend={t('scheduling.groupAction')}>
          <SelectField name="ieOpcao" options={IE_OPCAO.map((value) => ({ value, label: t(`scheduling.ieOpcao.${value}`) }))} />
          {ieOpcao === 'CR' ? <TextField name="tokenReservaCanc" maxLength={TOKEN_RESERVA_MAX + 8} /> : null}
        </Group>
        <Group legend={t('scheduling.groupSlot')}>
          <TextField name="nrSeqAgenda" numeric />
          <TextField name="nrMinDuracao" numeric />
          <TextField name="nrSeqProcInterno" numeric />
          <SelectField
            name="ieLado"
            need="optional"
            options={[
              { value: '', label: t('scheduling.ieLado.none') },
              ...IE_LADO.map((value) => ({ value, label: t(`scheduling.ieLado.${value}`) })),
            ]}
          />
        </Group>
        <Group legend={t('scheduling.groupBeneficiary')}>
          <TextField name="cdPessoaFisica" numeric />
          <TextField name="cdUsuarioConvenio" />
          <TextField name="cdConvenio" numeric />
          <TextField name="cdCategoria" numeric />
          <TextField name="cdPlano" numeric />
          <TextField name="nmUsuario" maxLength={NM_USUARIO_MAX + 10} />
        </Group>
        <div className="flex flex-wrap justify-end gap-3 border-t border-slate-200 pt-4">
          <Button variant="ghost" onClick={onClear}>
            {t('scheduling.clear')}
          </Button>
          <Button type="submit" disabled={sending} variant={ieOpcao === 'CR' ? 'danger' : 'primary'}>
            {sending ? t('scheduling.sending') : ieOpcao === 'CR' ? t('scheduling.submitCR') : t('scheduling.submitR')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
