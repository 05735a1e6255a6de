'use client';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field, describedBy } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { isListingUnavailable } from '@/lib/client/scheduling-queries';
import { useT } from '@/lib/i18n/client';
import type { MessageKey } from '@/lib/i18n';
import type { Procedure } from '@/lib/scheduling/contract';
import { IE_LADO, IE_OPCAO, NM_USUARIO_MAX, TOKEN_RESERVA_MAX } from '@/lib/scheduling/fields';
import { chosenProcedure, type ReservationFormValues } from '@/lib/scheduling/reservation-form-values';
import { Form } from '@/components/ui/form';
import { useFormContext, useWatch } from '@/components/ui/form-library';

type Name = keyof ReservationFormValues;
type Need = 'required' | 'optional';

/** "Paciente (cdPessoaFisica)": a short human label, with the API name the issue asks for beside it. */
function FieldLabel({ name }: { name: Name }) {
  const t = useT();
  return (
    <>
      {t(`scheduling.label.${name}` as MessageKey)} <span className="font-mono text-[0.8125rem] font-normal text-slate-700">({name})</span>
    </>
  );
}

function useFieldError(name: Name) {
  const { formState } = useFormContext<ReservationFormValues>();
  return formState.errors[name]?.message;
}

/** What the input or select inside a ReservationField needs to be tied to its label and messages. */
type ControlProps = { id: string; invalid: boolean; 'aria-describedby': string | undefined };

/**
 * The frame every §2.2 field shares: the label with its API name, the required/optional badge,
 * a short description and the field's error. The control itself comes from `children`.
 */
function ReservationField({
  name,
  need = 'required',
  description,
  className,
  children,
}: {
  name: Name;
  need?: Need;
  description?: ReactNode;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const t = useT();
  const error = useFieldError(name);
  const id = `field-${name}`;
  return (
    <Field
      id={id}
      label={<FieldLabel name={name} />}
      badge={t(`common.${need}`)}
      description={description ?? t(`scheduling.field.${name}` as MessageKey)}
      error={error}
      className={className}
    >
      {children({ id, invalid: Boolean(error), 'aria-describedby': describedBy(id, { description: true, error: Boolean(error) }) })}
    </Field>
  );
}

/** One text field of §2.2. */
function TextField({
  name,
  need = 'required',
  numeric = false,
  maxLength,
  description,
}: {
  name: Name;
  need?: Need;
  numeric?: boolean;
  maxLength?: number;
  description?: ReactNode;
}) {
  const { register } = useFormContext<ReservationFormValues>();
  return (
    <ReservationField name={name} need={need} description={description}>
      {(control) => (
        <Input
          {...control}
          inputMode={numeric ? 'numeric' : undefined}
          autoComplete="off"
          spellCheck={false}
          maxLength={maxLength}
          className="font-mono"
          {...register(name)}
        />
      )}
    </ReservationField>
  );
}

function SelectField({
  name,
  options,
  need = 'required',
  description,
  onChange,
  busy,
  wide = false,
}: {
  name: 'ieOpcao' | 'ieLado' | 'nrSeqProcInterno';
  options: { value: string; label: string }[];
  need?: Need;
  description?: ReactNode;
  onChange?: (value: string) => void;
  busy?: boolean;
  /** Both columns, so long option texts (exam names with their code) are not cut. */
  wide?: boolean;
}) {
  const { register } = useFormContext<ReservationFormValues>();
  return (
    <ReservationField name={name} need={need} description={description} className={wide ? 'sm:col-span-2' : undefined}>
      {(control) => (
        <Select
          {...control}
          aria-busy={busy || undefined}
          {...register(name, onChange ? { onChange: (event: { target: { value: string } }) => onChange(event.target.value) } : undefined)}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      )}
    </ReservationField>
  );
}

/**
 * nrSeqProcInterno: a choice among the back-end's exams, by name and code, when it lists them; the
 * numeric code otherwise (the Oracle back-end answers 501, or the listing failed).
 */
function ExamField({ procedures, onExamChange }: { procedures: UseQueryResult<Procedure[]>; onExamChange: (code: string) => void }) {
  const t = useT();
  const current = useWatch<ReservationFormValues, 'nrSeqProcInterno'>({ name: 'nrSeqProcInterno' });
  if (procedures.isError || (procedures.isSuccess && procedures.data.length === 0)) {
    const reason =
      procedures.isError && !isListingUnavailable(procedures.error) ? 'scheduling.exam.listFailed' : 'scheduling.exam.noListing';
    return <TextField name="nrSeqProcInterno" numeric description={`${t('scheduling.field.nrSeqProcInterno')} ${t(reason)}`} />;
  }
  const listed = procedures.data ?? [];
  const unlisted = current.trim() !== '' && !chosenProcedure({ nrSeqProcInterno: current }, listed);
  const options = procedures.isPending
    ? [{ value: current, label: t('scheduling.exam.loading') }]
    : [
        { value: '', label: t('scheduling.exam.choose') },
        ...listed.map((procedure) => ({
          value: String(procedure.NR_SEQ_PROC_INTERNO),
          label: t('scheduling.exam.option', { name: procedure.DS_PROCEDIMENTO, code: procedure.NR_SEQ_PROC_INTERNO }),
        })),
        ...(unlisted ? [{ value: current, label: t('scheduling.exam.unlisted', { code: current }) }] : []),
      ];
  return <SelectField name="nrSeqProcInterno" options={options} onChange={onExamChange} busy={procedures.isPending} wide />;
}

function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-3 text-xs font-semibold tracking-wide text-slate-500 uppercase">{legend}</legend>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

export function ReservationForm({
  formId,
  onSubmit,
  sending,
  onClear,
  procedures,
  onExamChange,
}: {
  formId: string;
  onSubmit: () => void;
  sending: boolean;
  onClear: () => void;
  procedures: UseQueryResult<Procedure[]>;
  onExamChange: (code: string) => void;
}) {
  const t = useT();
  const [ieOpcao, code, duration] = useWatch<ReservationFormValues, ['ieOpcao', 'nrSeqProcInterno', 'nrMinDuracao']>({
    name: ['ieOpcao', 'nrSeqProcInterno', 'nrMinDuracao'],
  });
  const exam = chosenProcedure({ nrSeqProcInterno: code }, procedures.data ?? []);
  const needsSide = ieOpcao === 'R' && exam?.IE_LADO_OBRIGATORIO === 'S';
  // The hint and the "side required" error say the same thing: while the error shows, it alone.
  const sideError = useFieldError('ieLado');
  const usualDuration = exam && String(exam.NR_MIN_DURACAO) !== duration.trim() ? exam.NR_MIN_DURACAO : undefined;
  return (
    <Card title={t('scheduling.formTitle')} titleId="request-title">
      <Form
        id={formId}
        tabIndex={-1}
        onSubmit={onSubmit}
        noValidate
        className="flex flex-col gap-6 focus:outline-none"
        aria-labelledby="request-title"
      >
        <Group legend={t('scheduling.groupAction')}>
          <SelectField name="ieOpcao" options={IE_OPCAO.map((value) => ({ value, label: t(`scheduling.ieOpcao.${value}`) }))} />
          {ieOpcao === 'CR' ? <TextField name="tokenReservaCanc" maxLength={TOKEN_RESERVA_MAX + 8} /> : null}
        </Group>
        <Group legend={t('scheduling.groupSlot')}>
          <ExamField procedures={procedures} onExamChange={onExamChange} />
          <TextField name="nrSeqAgenda" numeric />
          <TextField
            name="nrMinDuracao"
            numeric
            description={
              usualDuration
                ? `${t('scheduling.field.nrMinDuracao')} ${t('scheduling.exam.usualDuration', { minutes: usualDuration })}`
                : undefined
            }
          />
          <SelectField
            name="ieLado"
            need={needsSide ? 'required' : 'optional'}
            description={needsSide && !sideError ? t('scheduling.exam.needsSide') : undefined}
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
      </Form>
    </Card>
  );
}
