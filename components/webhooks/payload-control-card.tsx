'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Select } from '@/components/ui/input';
import { useToast } from '@/components/ui/toast';
import { ProblemMessage } from '@/components/console/problem-message';
import { useSurface } from '@/components/console/surface';
import { PayloadFieldPicker } from './payload-field-picker';
import { ApiProblem, apiJson } from '@/lib/client/api';
import { webhookKeys, type LoadedWebhook } from '@/lib/client/webhook-queries';
import { apiPath, testPayloadControl, updateWebhookConfiguration } from '@/lib/api/routes';
import { useT } from '@/lib/i18n/client';
import type { WebhookView } from '@/lib/webhooks/configurations/contract';
import { EVENT_TYPE_OF_FLAG, WEBHOOK_EVENT_FLAGS } from '@/lib/webhooks/events/types';
import type { PayloadBenchResult } from '@/lib/webhooks/payload-control/bench-contract';
import { MAX_TRANSFORM_CHARS, TRANSFORM_MEMORY_LIMIT_BYTES, TRANSFORM_TIME_LIMIT_MS } from '@/lib/webhooks/payload-control/limits';
import { useApiCaller } from '@/lib/client/api-base';

/**
 * Payload control (issue 46): the configuration's content filter, field rules and transformation,
 * edited as text, and a test bench that runs a sample or pasted message through them with the
 * engine's own code (POST …/payload/teste) before they are saved. Self-contained (its own state,
 * save and bench), so it can sit in any section of the editor; a read-only portal session sees the
 * three and can change or try none.
 */
const CODE_EXAMPLE = `function handler(webhook) {
  // webhook: { type, payload, headers }
  return { payload: webhook.payload, headers: {} };
}`;

type Draft = { filtro: string; campos: string; transformacao: string };

function draftOf(config: LoadedWebhook['config']): Draft {
  return {
    filtro: config.filtro === null ? '' : JSON.stringify(config.filtro, null, 2),
    campos: config.campos.length === 0 ? '' : JSON.stringify(config.campos, null, 2),
    transformacao: config.transformacao ?? '',
  };
}

/** The draft as a PUT's fields; a text that is not JSON is named, and sent as nothing. */
function bodyOf(draft: Draft): { body: Record<string, unknown>; invalid: (keyof Draft)[] } {
  const invalid: (keyof Draft)[] = [];
  const parsed = (key: 'filtro' | 'campos') => {
    if (draft[key].trim() === '') return null;
    try {
      return JSON.parse(draft[key]) as unknown;
    } catch {
      invalid.push(key);
      return undefined;
    }
  };
  const body = {
    filtro: parsed('filtro'),
    campos: parsed('campos'),
    transformacao: draft.transformacao.trim() === '' ? null : draft.transformacao,
  };
  return { body, invalid };
}

function Pretty({ value }: { value: unknown }) {
  return (
    <pre className="max-h-64 overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs break-all whitespace-pre-wrap text-slate-800">
      {typeof value === 'string' ? value : JSON.stringify(value, null, 2)}
    </pre>
  );
}

function TextArea({
  id,
  label,
  hint,
  value,
  onChange,
  rows,
  invalid,
  disabled,
}: {
  id: string;
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  rows: number;
  invalid?: boolean;
  disabled?: boolean;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        id={id}
        rows={rows}
        value={value}
        disabled={disabled}
        spellCheck={false}
        aria-invalid={invalid || undefined}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.target.value)}
        className={`w-full rounded-md border bg-white p-2 font-mono text-xs text-slate-900 disabled:bg-slate-100 ${invalid ? 'border-red-500' : 'border-slate-300'}`}
      />
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        {hint}
      </p>
    </div>
  );
}

export function PayloadControlCard({ loaded }: { loaded: LoadedWebhook }) {
  const t = useT();
  const api = useApiCaller();
  const toast = useToast();
  const queryClient = useQueryClient();
  const { readOnly } = useSurface();
  const ids = useId();
  const { config } = loaded;
  const [draft, setDraft] = useState<Draft>(() => draftOf(config));
  const [tipo, setTipo] = useState<string>(() => WEBHOOK_EVENT_FLAGS.find((flag) => config[flag]) ?? WEBHOOK_EVENT_FLAGS[0]);
  const [pasted, setPasted] = useState('');
  const { body, invalid } = bodyOf(draft);
  const set = (key: keyof Draft) => (value: string) => setDraft((current) => ({ ...current, [key]: value }));

  const bench = useMutation({
    mutationFn: () => {
      const message = pasted.trim() === '' ? {} : { mensagem: JSON.parse(pasted) as unknown };
      return apiJson<PayloadBenchResult>(api, apiPath(testPayloadControl, { id: config.id }), {
        method: 'POST',
        body: JSON.stringify({ tipo, ...message, ...body }),
      });
    },
  });
  const save = useMutation({
    mutationFn: () =>
      apiJson<WebhookView>(api, apiPath(updateWebhookConfiguration, { id: config.id }), {
        method: 'PUT',
        headers: { 'If-Match': loaded.etag },
        body: JSON.stringify(body),
      }),
    onSuccess: () => {
      toast(t('payload.saved'));
      void queryClient.invalidateQueries({ queryKey: webhookKeys.detail(config.id) });
    },
  });
  const refused = (error: unknown) =>
    error instanceof ApiProblem && error.problem.errors?.length ? (
      <ul className="list-disc pl-5">
        {error.problem.errors.map((fieldError) => (
          <li key={fieldError.pointer}>
            <code className="font-mono">{fieldError.field}</code>: {fieldError.message}
            {error.problem.detail && fieldError.field === 'transformacao' ? ` (${error.problem.detail})` : null}
          </li>
        ))}
      </ul>
    ) : (
      <ProblemMessage error={error} />
    );
  const result = bench.data?.body;

  return (
    <Card title={t('payload.title')} titleId={`${ids}-title`} description={t('payload.description')}>
      <div className="flex flex-col gap-4">
        <TextArea
          id={`${ids}-filtro`}
          label={t('payload.filter')}
          hint={t('payload.filterHint')}
          value={draft.filtro}
          onChange={set('filtro')}
          rows={5}
          invalid={invalid.includes('filtro')}
          disabled={readOnly}
        />
        <TextArea
          id={`${ids}-campos`}
          label={t('payload.fields')}
          hint={t('payload.fieldsHint')}
          value={draft.campos}
          onChange={set('campos')}
          rows={4}
          invalid={invalid.includes('campos')}
          disabled={readOnly}
        />
        {readOnly ? null : (
          <PayloadFieldPicker
            id={`${ids}-campo`}
            flags={WEBHOOK_EVENT_FLAGS.filter((flag) => config[flag])}
            filtro={draft.filtro}
            campos={draft.campos}
            onFiltro={set('filtro')}
            onCampos={set('campos')}
          />
        )}
        <TextArea
          id={`${ids}-codigo`}
          label={t('payload.transform')}
          hint={t('payload.transformHint', {
            ms: TRANSFORM_TIME_LIMIT_MS,
            mib: TRANSFORM_MEMORY_LIMIT_BYTES / (1024 * 1024),
            max: MAX_TRANSFORM_CHARS,
          })}
          value={draft.transformacao}
          onChange={set('transformacao')}
          rows={7}
          disabled={readOnly}
        />
        {readOnly ? null : (
          <div className="flex flex-wrap items-center gap-3">
            {draft.transformacao === '' ? (
              <Button type="button" variant="ghost" size="sm" onClick={() => set('transformacao')(CODE_EXAMPLE)}>
                {t('payload.insertExample')}
              </Button>
            ) : null}
            {invalid.length > 0 ? <p className="text-sm text-red-700">{t('payload.notJson')}</p> : null}
            <Button type="button" className="ml-auto" disabled={save.isPending || invalid.length > 0} onClick={() => save.mutate()}>
              {save.isPending ? t('payload.saving') : t('payload.save')}
            </Button>
          </div>
        )}
        {save.error ? (
          <Alert tone="danger" role="alert">
            {refused(save.error)}
          </Alert>
        ) : null}

        {readOnly ? null : (
          <section aria-labelledby={`${ids}-bench`} className="flex flex-col gap-3 border-t border-slate-200 pt-4">
            <h3 id={`${ids}-bench`} className="text-sm font-semibold text-slate-900">
              {t('payload.bench')}
            </h3>
            <div className="flex flex-col gap-1">
              <label htmlFor={`${ids}-tipo`} className="text-sm font-medium text-slate-800">
                {t('payload.eventType')}
              </label>
              <Select id={`${ids}-tipo`} value={tipo} onChange={(event) => setTipo(event.target.value)}>
                {WEBHOOK_EVENT_FLAGS.map((flag) => (
                  <option key={flag} value={flag}>
                    {EVENT_TYPE_OF_FLAG[flag]}
                  </option>
                ))}
              </Select>
            </div>
            <TextArea
              id={`${ids}-mensagem`}
              label={t('payload.pasted')}
              hint={t('payload.pastedHint')}
              value={pasted}
              onChange={setPasted}
              rows={3}
            />
            <div>
              <Button type="button" variant="secondary" disabled={bench.isPending || invalid.length > 0} onClick={() => bench.mutate()}>
                {bench.isPending ? t('payload.running') : t('payload.run')}
              </Button>
            </div>
            {bench.error ? (
              <Alert tone="danger" role="alert">
                {bench.error instanceof SyntaxError ? t('payload.pastedNotJson') : refused(bench.error)}
              </Alert>
            ) : null}
            {result ? (
              <div className="flex flex-col gap-3" aria-live="polite">
                <p className="text-sm">
                  <span className="font-medium">{t('payload.verdict')}: </span>
                  {result.filtro.passa ? t('payload.passes') : t('payload.filteredOut')}
                </p>
                <div>
                  <p className="mb-1 text-sm font-medium">{t('payload.minimised')}</p>
                  <Pretty value={result.minimizado} />
                </div>
                <div>
                  <p className="mb-1 text-sm font-medium">{t('payload.transformed')}</p>
                  {result.transformacao.resultado === 'falhou' ? (
                    <Alert tone="danger">{result.transformacao.motivo}</Alert>
                  ) : result.transformacao.resultado === 'cancelar' ? (
                    <p className="text-sm">{t('payload.cancelled')}</p>
                  ) : result.transformacao.resultado === 'sem-transformacao' ? (
                    <p className="text-sm">{t('payload.noTransform')}</p>
                  ) : (
                    <Pretty value={{ payload: result.transformacao.payload, headers: result.transformacao.cabecalhos }} />
                  )}
                </div>
                <p className="text-xs text-slate-600">
                  {t('payload.pointers')}: <code className="font-mono">{result.campos.join('  ')}</code>
                </p>
              </div>
            ) : null}
          </section>
        )}
      </div>
    </Card>
  );
}
