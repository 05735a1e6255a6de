import { z } from 'zod';
import { normalizeWebhookUrl } from '../configurations/url-form';
import { checkWebhookUrl } from '../configurations/url-policy';

/**
 * The operator's receiver of operational events (issue 31 §3), merged into the app's environment
 * schema in lib/config/env.ts. Unset: no operational event is published.
 */
export const operationalEnvShape = {
  /**
   * Where operational events go (Standard Webhooks, signed with the operator configuration's own
   * secret). The receiver URL rules apply, relaxed by WEBHOOK_ALLOW_HTTP and
   * WEBHOOK_ALLOW_PRIVATE_TARGETS as for any configuration.
   */
  OPERATIONAL_WEBHOOK_URL: z.string().min(1).optional(),
};

type OperationalEnv = { OPERATIONAL_WEBHOOK_URL?: string; WEBHOOK_ALLOW_HTTP: boolean; WEBHOOK_ALLOW_PRIVATE_TARGETS: boolean };

export function checkOperationalEnv(value: OperationalEnv, ctx: z.RefinementCtx): void {
  const url = value.OPERATIONAL_WEBHOOK_URL;
  if (url === undefined) return;
  const broken = checkWebhookUrl(url, { allowHttp: value.WEBHOOK_ALLOW_HTTP, allowPrivateTargets: value.WEBHOOK_ALLOW_PRIVATE_TARGETS });
  if (broken) {
    ctx.addIssue({
      code: 'custom',
      path: ['OPERATIONAL_WEBHOOK_URL'],
      message: `breaks the receiver URL rules (${broken}): an absolute https URL without credentials, not a loopback or private address (plain http and private targets only with WEBHOOK_ALLOW_HTTP / WEBHOOK_ALLOW_PRIVATE_TARGETS, for development)`,
    });
  }
}

/** The URL as stored and delivered to (the same normalisation a configuration's URL gets). */
export function operationalWebhookUrl(value: OperationalEnv): string | undefined {
  return value.OPERATIONAL_WEBHOOK_URL === undefined ? undefined : normalizeWebhookUrl(value.OPERATIONAL_WEBHOOK_URL);
}
