'use client';
import { useFormContext } from '@/components/ui/form-library';
import { Switch } from '@/components/ui/switch';
import { registerChecked } from '@/lib/client/register-shown';
import type { WebhookEventFlag } from '@/lib/webhooks/events/types';
import type { WebhookFormValues } from './webhook-form-values';

/** One event flag's switch, inside the webhook form's FormProvider; its label and help are the server's (EventToggles). */
export function EventSwitch({ flag }: { flag: WebhookEventFlag }) {
  const form = useFormContext<WebhookFormValues>();
  return <Switch id={flag} aria-describedby={`${flag}-description`} {...registerChecked(form, flag)} className="mt-0.5" />;
}
