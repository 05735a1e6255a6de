'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { apiPath, createStaff } from '@/lib/api/routes';
import { adminKeys } from '@/lib/client/admin-query-keys';
import { apiJson } from '@/lib/client/api';
import { contractResolver, isFieldRefusal, showRefusedFields } from '@/lib/client/form-errors';
import { useLocale, useMessages } from '@/lib/i18n/client';
import type { PasswordLink, StaffView } from '@/lib/staff/contract';
import { NEW_STAFF_DEFAULTS, NewStaffFormView, type NewStaffValues, type Revealed } from './new-staff-form';

/** The new-account form with react-hook-form: loaded after hydration by new-staff-form.tsx. */
export function LiveNewStaffForm({ onCreated }: { onCreated: (value: Revealed) => void }) {
  const locale = useLocale();
  const messages = useMessages();
  const queryClient = useQueryClient();
  const { register, handleSubmit, formState, setError, reset } = useForm<NewStaffValues>({
    defaultValues: NEW_STAFF_DEFAULTS,
    resolver: contractResolver(() => import('@/lib/staff/contract').then((contract) => contract.staffCreateSchema), messages),
  });
  const create = useMutation({
    mutationFn: async (values: NewStaffValues) =>
      (
        await apiJson<StaffView & { definicaoSenha: PasswordLink }>(locale, apiPath(createStaff), {
          method: 'POST',
          body: JSON.stringify(values),
        })
      ).body,
    onSuccess: (created) => {
      onCreated({ email: created.email, link: created.definicaoSenha });
      reset();
      void queryClient.invalidateQueries({ queryKey: adminKeys.staff });
    },
    onError: (error) => void showRefusedFields(error, setError),
  });
  return (
    <NewStaffFormView
      register={register}
      errors={formState.errors}
      ready
      pending={create.isPending}
      unexpected={create.error && !isFieldRefusal(create.error) ? create.error : undefined}
      onSubmit={handleSubmit((values) => create.mutate(values))}
    />
  );
}
