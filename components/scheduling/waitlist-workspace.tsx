'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { describedBy, Field } from '@/components/ui/field';
import { Form } from '@/components/ui/form';
import { Input, Select } from '@/components/ui/input';
import { QueryStatus } from '@/components/console/query-status';
import { addWaitlistEntry, apiPath, moveWaitlistEntry } from '@/lib/api/routes';
import { apiFetch, readProblem, type Problem } from '@/lib/client/api';
import { useApiCaller } from '@/lib/client/api-base';
import { schedulingKeys } from '@/lib/client/query-keys';
import { useWaitlistLines } from '@/lib/client/waitlist-queries';
import { brasiliaDateTime, brasiliaInputToIso } from '@/lib/i18n/brasilia-time';
import { useLocale, useT } from '@/lib/i18n/client';
import { IE_LADO } from '@/lib/scheduling/fields';
import type { WaitlistEntry, WaitlistLine } from '@/lib/scheduling/waitlist-contract';

/**
 * The console's waitlist (issue 48): each exam's line in order, the offers out with their
 * deadlines, a form to put a patient on the list, and a move in line with its reason (audited).
 * The lines are read again every few seconds: offers are made and expire on their own.
 */
const FIELDS = [
  ['usuarioId', 'text'],
  ['nrSeqProcInterno', 'number'],
  ['nrMinDuracao', 'number'],
  ['cdPessoaFisica', 'number'],
  ['cdConvenio', 'number'],
  ['cdCategoria', 'number'],
  ['cdPlano', 'number'],
  ['cdUsuarioConvenio', 'text'],
  ['nmUsuario', 'text'],
] as const;
type FieldName = (typeof FIELDS)[number][0] | 'cdAgendas' | 'de' | 'ate' | 'ieLado';
type Values = Record<FieldName, string>;

const EMPTY: Values = {
  usuarioId: '',
  nrSeqProcInterno: '',
  nrMinDuracao: '30',
  cdPessoaFisica: '',
  cdConvenio: '',
  cdCategoria: '',
  cdPlano: '',
  cdUsuarioConvenio: '',
  nmUsuario: '',
  cdAgendas: '',
  de: '',
  ate: '',
  ieLado: '',
};

/** The form's values as the API's body: numbers as numbers, the window in São Paulo time, empty fields left out. */
function bodyOf(values: Values): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, kind] of FIELDS) {
    const value = values[name].trim();
    if (value !== '') body[name] = kind === 'number' && /^\d+$/.test(value) ? Number(value) : value;
  }
  if (values.ieLado) body.ieLado = values.ieLado;
  const agendas = values.cdAgendas
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (agendas.length > 0) body.cdAgendas = agendas.map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  body.de = brasiliaInputToIso(values.de) ?? values.de;
  body.ate = brasiliaInputToIso(values.ate) ?? values.ate;
  return body;
}

/** Field errors by field (the first segment of its path: `cdAgendas.0` is cdAgendas's). */
function errorsOf(problem: Problem | undefined): Partial<Record<string, string>> {
  const errors: Partial<Record<string, string>> = {};
  for (const error of problem?.errors ?? []) {
    const name = error.field.split('.')[0] ?? '';
    errors[name] ??= error.message;
  }
  return errors;
}

function AddEntryForm() {
  const t = useT();
  const api = useApiCaller();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>(EMPTY);
  const [problem, setProblem] = useState<Problem>();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const errors = errorsOf(problem);
  const set = (name: FieldName) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [name]: event.target.value }));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setSaved(false);
    try {
      const response = await apiFetch(api, apiPath(addWaitlistEntry), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(bodyOf(values)),
      });
      if (!response.ok) {
        setProblem(await readProblem(response));
        return;
      }
      setProblem(undefined);
      setSaved(true);
      setValues((current) => ({ ...EMPTY, usuarioId: current.usuarioId, nrSeqProcInterno: current.nrSeqProcInterno }));
      await queryClient.invalidateQueries({ queryKey: schedulingKeys.waitlist });
    } finally {
      setBusy(false);
    }
  }

  const control = (name: FieldName, type: string, extra: { description?: string } = {}) => (
    <Field id={`waitlist-${name}`} label={name} mono error={errors[name]} description={extra.description}>
      <Input
        id={`waitlist-${name}`}
        name={name}
        type={type}
        inputMode={type === 'number' ? 'numeric' : undefined}
        value={values[name]}
        onChange={set(name)}
        invalid={Boolean(errors[name])}
        aria-describedby={describedBy(`waitlist-${name}`, { description: Boolean(extra.description), error: Boolean(errors[name]) })}
      />
    </Field>
  );

  return (
    <Card title={t('waitlist.addTitle')} titleId="waitlist-add-title" description={t('waitlist.addIntro')}>
      <Form aria-labelledby="waitlist-add-title" onSubmit={submit} noValidate className="flex flex-col gap-4">
        {problem && !problem.errors?.length ? (
          <Alert tone="danger" role="alert" title={t('waitlist.addFailed')}>
            {problem.detail ?? problem.title}
          </Alert>
        ) : null}
        {saved ? <Alert tone="success" role="status" title={t('waitlist.added')} /> : null}
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {control('usuarioId', 'text')}
          {control('nrSeqProcInterno', 'text')}
          {control('nrMinDuracao', 'text')}
          <Field id="waitlist-ieLado" label="ieLado" mono error={errors.ieLado}>
            <Select id="waitlist-ieLado" name="ieLado" value={values.ieLado} onChange={set('ieLado')} invalid={Boolean(errors.ieLado)}>
              <option value="">{t('waitlist.sideNone')}</option>
              {IE_LADO.map((side) => (
                <option key={side} value={side}>
                  {side}
                </option>
              ))}
            </Select>
          </Field>
          {control('cdAgendas', 'text', { description: t('waitlist.agendasHelp') })}
          {control('de', 'datetime-local', { description: t('waitlist.windowHelp') })}
          {control('ate', 'datetime-local', { description: t('waitlist.windowHelp') })}
          {control('cdPessoaFisica', 'text')}
          {control('cdConvenio', 'text')}
          {control('cdCategoria', 'text')}
          {control('cdPlano', 'text')}
          {control('cdUsuarioConvenio', 'text')}
          {control('nmUsuario', 'text')}
        </div>
        <div>
          <Button type="submit" disabled={busy}>
            {t('waitlist.add')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

function MoveForm({ entry, onDone }: { entry: WaitlistEntry; onDone: () => void }) {
  const t = useT();
  const api = useApiCaller();
  const queryClient = useQueryClient();
  const [position, setPosition] = useState('1');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<Problem>();
  const errors = errorsOf(problem);
  const id = `move-${entry.id}`;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const response = await apiFetch(api, apiPath(moveWaitlistEntry, { id: entry.id }), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ posicao: /^\d+$/.test(position) ? Number(position) : position, motivo: reason }),
    });
    if (!response.ok) {
      setProblem(await readProblem(response));
      return;
    }
    await queryClient.invalidateQueries({ queryKey: schedulingKeys.waitlist });
    onDone();
  }

  return (
    <Form aria-label={t('waitlist.moveLabel', { name: entry.nmUsuario })} onSubmit={submit} noValidate className="mt-2 flex flex-col gap-3">
      {problem && !problem.errors?.length ? (
        <Alert tone="danger" role="alert" title={t('waitlist.moveFailed')}>
          {problem.detail ?? problem.title}
        </Alert>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-[8rem_1fr]">
        <Field id={`${id}-posicao`} label={t('waitlist.moveTo')} error={errors.posicao}>
          <Input
            id={`${id}-posicao`}
            inputMode="numeric"
            value={position}
            onChange={(event) => setPosition(event.target.value)}
            invalid={Boolean(errors.posicao)}
            aria-describedby={describedBy(`${id}-posicao`, { error: Boolean(errors.posicao) })}
          />
        </Field>
        <Field id={`${id}-motivo`} label={t('waitlist.moveReason')} description={t('waitlist.moveReasonHelp')} error={errors.motivo}>
          <Input
            id={`${id}-motivo`}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            invalid={Boolean(errors.motivo)}
            aria-describedby={describedBy(`${id}-motivo`, { description: true, error: Boolean(errors.motivo) })}
          />
        </Field>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm">
          {t('waitlist.moveSave')}
        </Button>
        <Button variant="secondary" size="sm" onClick={onDone}>
          {t('waitlist.moveCancel')}
        </Button>
      </div>
    </Form>
  );
}

function EntryFacts({ entry }: { entry: WaitlistEntry }) {
  const t = useT();
  const locale = useLocale();
  return (
    <>
      <p className="text-sm font-medium break-words text-slate-900">
        {t('waitlist.entryFacts', { name: entry.nmUsuario, patient: entry.cdPessoaFisica, tenant: entry.usuarioId.slice(0, 8) })}
      </p>
      <p className="text-xs break-words text-slate-600">
        {t('waitlist.entryWindow', {
          from: brasiliaDateTime(entry.de, locale),
          until: brasiliaDateTime(entry.ate, locale),
          agendas: entry.cdAgendas?.join(', ') ?? t('waitlist.anyAgenda'),
        })}
      </p>
    </>
  );
}

function ExamLine({ line }: { line: WaitlistLine }) {
  const t = useT();
  const locale = useLocale();
  const [moving, setMoving] = useState<string>();
  const titleId = `waitlist-exam-${line.nrSeqProcInterno}`;
  return (
    <Card title={t('waitlist.exam', { exam: line.nrSeqProcInterno })} titleId={titleId}>
      <div className="grid gap-6 lg:grid-cols-2">
        <div>
          <h3 className="text-sm font-semibold text-slate-900">{t('waitlist.waiting', { count: line.aguardando.length })}</h3>
          {line.aguardando.length === 0 ? <p className="mt-2 text-sm text-slate-600">{t('waitlist.noneWaiting')}</p> : null}
          <ol className="mt-2 divide-y divide-slate-200" aria-label={t('waitlist.waiting', { count: line.aguardando.length })}>
            {line.aguardando.map((entry, index) => (
              <li key={entry.id} data-entry={entry.id} className="py-2">
                <div className="flex items-start gap-3">
                  <span className="w-8 shrink-0 text-sm font-semibold text-slate-700 tabular-nums">
                    {t('waitlist.position', { position: index + 1 })}
                  </span>
                  <div className="min-w-0 grow">
                    <EntryFacts entry={entry} />
                  </div>
                  {moving === entry.id ? null : (
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-label={t('waitlist.moveLabel', { name: entry.nmUsuario })}
                      onClick={() => setMoving(entry.id)}
                    >
                      {t('waitlist.move')}
                    </Button>
                  )}
                </div>
                {moving === entry.id ? <MoveForm entry={entry} onDone={() => setMoving(undefined)} /> : null}
              </li>
            ))}
          </ol>
        </div>
        <div>
          <h3 className="text-sm font-semibold text-slate-900">{t('waitlist.offers', { count: line.ofertas.length })}</h3>
          {line.ofertas.length === 0 ? <p className="mt-2 text-sm text-slate-600">{t('waitlist.noOffers')}</p> : null}
          <ul className="mt-2 divide-y divide-slate-200" aria-label={t('waitlist.offers', { count: line.ofertas.length })}>
            {line.ofertas.map((entry) => (
              <li key={entry.id} data-entry={entry.id} className="flex flex-col gap-1 py-2">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge tone={entry.situacao === 'ofertada' ? 'info' : 'neutral'}>
                    {t(entry.situacao === 'ofertada' ? 'waitlist.state.ofertada' : 'waitlist.state.reservando')}
                  </Badge>
                  {entry.oferta ? (
                    <span className="text-sm text-slate-900">
                      {t('waitlist.offerFacts', {
                        slot: entry.oferta.nrSeqAgenda,
                        agenda: entry.oferta.cdAgenda,
                        start: brasiliaDateTime(entry.oferta.dtAgenda, locale),
                      })}
                    </span>
                  ) : null}
                </div>
                <EntryFacts entry={entry} />
                {entry.oferta?.prazo ? (
                  <p className="text-sm font-medium text-amber-800">
                    {t('waitlist.deadline', { deadline: brasiliaDateTime(entry.oferta.prazo, locale, { seconds: true }) })}
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </Card>
  );
}

export function WaitlistWorkspace() {
  const t = useT();
  const lines = useWaitlistLines();
  return (
    <div className="flex flex-col gap-6">
      <AddEntryForm />
      <QueryStatus query={lines} empty={t('waitlist.empty')}>
        {(data) => data.map((line) => <ExamLine key={line.nrSeqProcInterno} line={line} />)}
      </QueryStatus>
    </div>
  );
}
