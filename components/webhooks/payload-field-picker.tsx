'use client';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input, Select } from '@/components/ui/input';
import { useT } from '@/lib/i18n/client';
import type { WebhookEventFlag } from '@/lib/webhooks/events/types';
import { withFieldRule, withFilterField } from '@/lib/webhooks/payload-control/draft-text';
import { FIELD_ACTIONS, pointerSegments, type FieldAction } from '@/lib/webhooks/payload-control/fields';
import { filterPathOf, type FieldSuggestion } from '@/lib/webhooks/payload-control/schema-pointers';

/**
 * Picks a field for the payload-control card (issue 46 §2): a text box whose suggestions (a
 * datalist, so the browser's own accessible list) are the subscribed event types' fields from the
 * catalogue's schemas, offered as the user types, and what to do with it: a field rule, or a
 * condition in the filter. The catalogue's schemas need zod, so they load on the first focus, not
 * with the editor.
 */
type Use = FieldAction | 'filtro';
const USES: readonly Use[] = [...FIELD_ACTIONS, 'filtro'];

export function PayloadFieldPicker({
  id,
  flags,
  filtro,
  campos,
  onFiltro,
  onCampos,
}: {
  id: string;
  flags: readonly WebhookEventFlag[];
  filtro: string;
  campos: string;
  onFiltro: (text: string) => void;
  onCampos: (text: string) => void;
}) {
  const t = useT();
  const [suggestions, setSuggestions] = useState<FieldSuggestion[] | null>(null);
  const [pointer, setPointer] = useState('');
  const [use, setUse] = useState<Use>('mascarar');
  const [problem, setProblem] = useState<string | null>(null);

  const load = () => {
    if (suggestions !== null) return;
    setSuggestions([]);
    void import('@/lib/webhooks/payload-control/catalogue-pointers').then(({ catalogueFieldSuggestions }) =>
      setSuggestions(catalogueFieldSuggestions(flags)),
    );
  };

  const add = () => {
    const chosen = pointer.trim();
    if (pointerSegments(chosen) === undefined) return setProblem(t('payload.pickPointer'));
    if (use === 'filtro') {
      const path = filterPathOf(chosen);
      if (path === undefined) return setProblem(t('payload.pickNoFilterPath'));
      const next = withFilterField(filtro, path);
      if (next === undefined) return setProblem(t('payload.pickFilterNotJson'));
      onFiltro(next);
    } else {
      const next = withFieldRule(campos, chosen, use);
      if (next === undefined) return setProblem(t('payload.pickFieldsNotJson'));
      onCampos(next);
    }
    setProblem(null);
    setPointer('');
  };

  return (
    <div role="group" aria-labelledby={`${id}-label`} className="flex flex-col gap-1">
      <p id={`${id}-label`} className="text-sm font-medium text-slate-800">
        {t('payload.pick')}
      </p>
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex min-w-64 flex-1 flex-col gap-1">
          <label htmlFor={`${id}-ponteiro`} className="text-xs text-slate-700">
            {t('payload.pickField')}
          </label>
          <Input
            id={`${id}-ponteiro`}
            list={`${id}-sugestoes`}
            value={pointer}
            placeholder="/data/…"
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${id}-hint`}
            onFocus={load}
            onChange={(event) => {
              load();
              setPointer(event.target.value);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                add();
              }
            }}
            className="font-mono"
          />
          <datalist id={`${id}-sugestoes`}>
            {(suggestions ?? []).map((suggestion) => (
              <option key={suggestion.ponteiro} value={suggestion.ponteiro} label={suggestion.descricao} />
            ))}
          </datalist>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-uso`} className="text-xs text-slate-700">
            {t('payload.pickUse')}
          </label>
          <Select id={`${id}-uso`} value={use} onChange={(event) => setUse(event.target.value as Use)} className="w-auto">
            {USES.map((option) => (
              <option key={option} value={option}>
                {t(`payload.use.${option}`)}
              </option>
            ))}
          </Select>
        </div>
        <Button type="button" variant="secondary" onClick={add}>
          {t('payload.pickAdd')}
        </Button>
      </div>
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        {t('payload.pickHint')}
      </p>
      <p role="status" className="text-sm text-red-700">
        {problem}
      </p>
    </div>
  );
}
