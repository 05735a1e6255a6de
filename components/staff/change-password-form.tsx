'use client';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { formText } from '@/components/ui/form-text';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useToast } from '@/components/ui/toast';
import { apiPath, changeOwnPassword } from '@/lib/api/routes';
import { ApiProblem, apiFetch, readProblem } from '@/lib/client/api';
import { useT } from '@/lib/i18n/client';
import { Form } from '@/components/ui/form';
import { useApiCaller } from '@/lib/client/api-base';

/**
 * The signed-in user's own password: the current one, then the new one twice. The inputs are not
 * controlled: what a password manager filled in is read from the form at submit, never reset to
 * React's empty state.
 */
export function ChangePasswordForm() {
  const t = useT();
  const api = useApiCaller();
  const toast = useToast();
  const form = useRef<HTMLFormElement>(null);
  const [mismatch, setMismatch] = useState(false);
  const save = useMutation({
    mutationFn: async (values: { current: string; next: string }) => {
      const response = await apiFetch(api, apiPath(changeOwnPassword), {
        method: 'POST',
        body: JSON.stringify({ senhaAtual: values.current, novaSenha: values.next }),
      });
      if (!response.ok) throw new ApiProblem(await readProblem(response));
    },
    onSuccess: () => {
      toast(t('password.changed'));
      form.current?.reset();
    },
  });
  const problem = save.error instanceof ApiProblem ? save.error.problem : undefined;
  const errorOf = (field: string) => problem?.errors?.find((error) => error.field === field)?.message;
  const field = (id: 'current' | 'next' | 'confirmation', label: string, error: string | undefined, autoComplete: string) => (
    <Field id={`password-${id}`} label={label} error={error}>
      <Input
        id={`password-${id}`}
        type="password"
        autoComplete={autoComplete}
        name={id}
        invalid={Boolean(error)}
        aria-describedby={describedBy(`password-${id}`, { error: Boolean(error) })}
      />
    </Field>
  );
  return (
    <Card title={t('password.changeTitle')} titleId="password-title">
      <Form
        ref={form}
        noValidate
        className="flex max-w-sm flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const values = { current: formText(data, 'current'), next: formText(data, 'next') };
          const matches = values.next === formText(data, 'confirmation');
          setMismatch(!matches);
          if (matches) save.mutate(values);
        }}
      >
        {field('current', t('password.current'), errorOf('senhaAtual'), 'current-password')}
        {field('next', t('password.new'), errorOf('novaSenha'), 'new-password')}
        {field('confirmation', t('password.confirm'), mismatch ? t('password.mismatch') : undefined, 'new-password')}
        <div>
          <Button type="submit" disabled={save.isPending}>
            {t('password.save')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
