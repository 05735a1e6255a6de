'use client';
import { useFormContext, useWatch } from '@/components/ui/form-library';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { ToggleGroup } from '@/components/ui/toggle-group';
import { useT } from '@/lib/i18n/client';
import { isBrokerUrl } from '@/lib/webhooks/configurations/broker-target';
import type { KindDescriptor } from '@/lib/webhooks/configurations/destinations/kind';
import { KINDS, kindOf } from '@/lib/webhooks/configurations/destinations/kinds';

/**
 * Where notifications go (issue 29): one of the destination kinds (their descriptors, kinds.ts).
 * The kind is the URL's scheme, so the URL stays the one thing saved; choosing a kind starts the
 * URL with its first (TLS) scheme. A broker has a login (`credenciais`): write-only, kept when left
 * blank. Small on purpose: it sits in the editor's first load.
 */
const KIND_NAMES = KINDS.map((descriptor) => descriptor.kind);

/** The kind a URL's scheme names; the first kind (HTTP) while it names none yet. */
export function kindOfUrl(url: string): KindDescriptor {
  return kindOf(url)?.descriptor ?? KINDS[0];
}

export type CredentialsValues = { usuario: string; senha: string };

/** The body's `credenciais`: only for a broker URL, and only when typed (blank keeps the stored ones). */
export function credentialsBody(url: string, credentials: CredentialsValues): CredentialsValues | undefined {
  if (!isBrokerUrl(url)) return undefined;
  if (credentials.usuario === '' && credentials.senha === '') return undefined;
  return credentials;
}

export function DestinationKindPicker() {
  const t = useT();
  const { setValue } = useFormContext<{ url: string }>();
  const url = useWatch<{ url: string }, 'url'>({ name: 'url' }) ?? '';
  const kind = kindOfUrl(url).kind;
  return (
    <div className="mb-4 flex flex-col gap-1">
      <span className="text-sm font-medium text-slate-800" id="destination-kind-label">
        {t('webhook.destinationKind')}
      </span>
      <ToggleGroup
        label={t('webhook.destinationKind')}
        options={KIND_NAMES}
        value={kind}
        optionLabel={(option) => t(KINDS.find((descriptor) => descriptor.kind === option)!.labelKey)}
        onChange={(next) => {
          const descriptor = KINDS.find((candidate) => candidate.kind === next)!;
          if (next !== kind) setValue('url', `${descriptor.schemes[0]!.scheme}//`, { shouldDirty: true, shouldValidate: false });
        }}
      />
    </div>
  );
}

/** The broker's user and password, under the URL, for a broker URL only. */
export function BrokerCredentialsFields({ stored }: { stored?: { usuario: string } | null }) {
  const t = useT();
  const { register, formState } = useFormContext<{ url: string; credenciais: CredentialsValues }>();
  const url = useWatch<{ url: string }, 'url'>({ name: 'url' }) ?? '';
  if (!isBrokerUrl(url)) return null;
  const errors = formState.errors.credenciais;
  const help = stored ? t('webhook.credentialsStored', { usuario: stored.usuario }) : t('webhook.credentialsHelp');
  return (
    <fieldset className="mt-4 grid gap-4 sm:grid-cols-2">
      <legend className="mb-1 text-sm font-medium text-slate-800">{t('webhook.credentials')}</legend>
      <p id="credenciais-help" className="text-sm text-slate-600 sm:col-span-2">
        {help}
      </p>
      <Field id="credenciais-usuario" label={t('webhook.credentialsUser')} error={errors?.usuario?.message}>
        <Input
          id="credenciais-usuario"
          autoComplete="off"
          spellCheck={false}
          invalid={Boolean(errors?.usuario)}
          aria-describedby={`credenciais-help ${describedBy('credenciais-usuario', { error: Boolean(errors?.usuario) }) ?? ''}`.trim()}
          {...register('credenciais.usuario')}
        />
      </Field>
      <Field id="credenciais-senha" label={t('webhook.credentialsPassword')} error={errors?.senha?.message}>
        <Input
          id="credenciais-senha"
          type="password"
          autoComplete="new-password"
          invalid={Boolean(errors?.senha)}
          aria-describedby={`credenciais-help ${describedBy('credenciais-senha', { error: Boolean(errors?.senha) }) ?? ''}`.trim()}
          {...register('credenciais.senha')}
        />
      </Field>
    </fieldset>
  );
}
