'use client';
import { useRouter } from 'next/navigation';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { ProblemMessage } from '@/components/console/problem-message';
import { ApiProblem, apiFetch, readProblem } from '@/lib/client/api';
import { webhookKeys } from '@/lib/client/webhook-queries';
import { apiPath, deleteWebhookConfiguration } from '@/lib/api/routes';
import { useT } from '@/lib/i18n/client';
import { useSurface } from '@/components/console/surface';
import { useApiCaller } from '@/lib/client/api-base';

/** Deletes the configuration (and its delivery log) after a confirmation, then back to the list. */
export function DeleteWebhookButton({ id }: { id: string }) {
  const t = useT();
  const api = useApiCaller();
  const toast = useToast();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { home } = useSurface();
  const remove = useMutation({
    mutationFn: () =>
      apiFetch(api, apiPath(deleteWebhookConfiguration, { id }), { method: 'DELETE' }).then(async (response) => {
        if (!response.ok) throw new ApiProblem(await readProblem(response));
      }),
    onSuccess: () => {
      toast(t('webhook.deleted'));
      void queryClient.invalidateQueries({ queryKey: webhookKeys.all });
      router.push(home);
    },
  });
  return (
    <span className="mr-auto flex flex-wrap items-center gap-2">
      <Button
        variant="danger"
        onClick={() => {
          if (window.confirm(t('webhook.deleteConfirm'))) remove.mutate();
        }}
        disabled={remove.isPending}
      >
        {t('webhook.delete')}
      </Button>
      {remove.error ? <ProblemMessage error={remove.error} /> : null}
    </span>
  );
}
