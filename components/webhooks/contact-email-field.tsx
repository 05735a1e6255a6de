'use client';
import { useFormContext } from '@/components/ui/form-library';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { registerShown } from '@/lib/client/register-shown';
import { useT } from '@/lib/i18n/client';

/**
 * The partner's technical contact (`emailContato`, issue 31 §3), inside the editor's FormProvider:
 * told by e-mail when the worker switches deliveries off and when they are back on, once its owner
 * confirmed it from the link e-mailed to it (issue 43; until then the field says it waits). Empty:
 * none (the form sends null).
 */
export function ContactEmailField({ awaitingConfirmation }: { awaitingConfirmation: boolean }) {
  const t = useT();
  const form = useFormContext<{ emailContato: string }>();
  const { formState } = form;
  const error = formState.errors.emailContato?.message;
  return (
    <Field
      id="emailContato"
      label={t('webhook.contactEmail')}
      mono
      description={
        awaitingConfirmation
          ? `${t('webhook.contactEmailHelp')} ${t('webhook.contactAwaitingConfirmation')}`
          : t('webhook.contactEmailHelp')
      }
      error={error}
      className="mt-4"
    >
      <Input
        id="emailContato"
        type="email"
        autoComplete="off"
        spellCheck={false}
        invalid={Boolean(error)}
        aria-describedby={describedBy('emailContato', { description: true, error: Boolean(error) })}
        {...registerShown(form, 'emailContato')}
      />
    </Field>
  );
}
