'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { apiPath, createApiClient } from '@/lib/api/routes';
import type { ApiClientWithSecret } from '@/lib/api-clients/contract';
import { adminKeys } from '@/lib/client/admin-query-keys';
import { apiJson } from '@/lib/client/api';
import { contractResolver, isFieldRefusal, showRefusedFields } from '@/lib/client/form-errors';
import { randomUuidV4 } from '@/lib/client/random-uuid';
import { useLocale, useMessages } from '@/lib/i18n/client';
import { NEW_CLIENT_DEFAULTS, NewClientFormView, type NewClientValues } from './new-client-form';

function toBody(values: NewClientValues) {
  return { ...values, sistemaOrigem: values.sistemaOrigem.trim() === '' ? undefined : Number(values.sistemaOrigem) };
}

/** The new-client form with react-hook-form: loaded after hydration by new-client-form.tsx. */
export function LiveNewClientForm({ onCreated }: { onCreated: (value: ApiClientWithSecret) => void }) {
  const locale = useLocale();
  const messages = useMessages();
  const queryClient = useQueryClient();
  const { register, handleSubmit, formState, setError, reset, setValue } = useForm<NewClientValues>({
    defaultValues: NEW_CLIENT_DEFAULTS,
    resolver: contractResolver(
      () => import('@/lib/api-clients/contract').then((contract) => contract.apiClientCreateSchema),
      messages,
      toBody,
    ),
  });
  const create = useMutation({
    mutationFn: async (values: NewClientValues) =>
      (
        await apiJson<ApiClientWithSecret>(locale, apiPath(createApiClient), {
          method: 'POST',
          body: JSON.stringify(toBody(values)),
        })
      ).body,
    onSuccess: (value) => {
      onCreated(value);
      reset();
      void queryClient.invalidateQueries({ queryKey: adminKeys.apiClients });
    },
    onError: (error) => void showRefusedFields(error, setError),
  });
  return (
    <NewClientFormView
      register={register}
      errors={formState.errors}
      ready
      pending={create.isPending}
      unexpected={create.error && !isFieldRefusal(create.error) ? create.error : undefined}
      onSubmit={handleSubmit((values) => create.mutate(values))}
      onGenerate={() => setValue('usuarioId', randomUuidV4(), { shouldValidate: true, shouldDirty: true })}
    />
  );
}
