import 'server-only';
import { getDb } from '@/lib/db/handle';
import { refuse } from '@/lib/errors/refusal';
import { recordAudit } from '@/lib/audit/store';
import type { Principal } from '@/lib/auth/principal';
import { OPERATOR_CONFIG_ID } from '../../events/operational';
import { configurationHooks } from '../hooks';
import { deleteWebhookRow, findWebhook } from '../store/configs';
import { auditView, visibleTo } from './access';

/** Deletes a configuration and its delivery log; another tenant's or an unknown id is a 404. */
export async function deleteWebhook(principal: Principal, id: string): Promise<void> {
  const db = await getDb();
  await db.transaction(async (trx) => {
    const current = await findWebhook(trx, id, { lock: true });
    if (!visibleTo(principal, current)) throw refuse.notFound('Webhook configuration not found.');
    // OPERATIONAL_WEBHOOK_URL makes it again at the next start (with a new secret): a delete that
    // does not stick. Unsetting the setting stops its events; switching it off pauses them.
    if (id === OPERATOR_CONFIG_ID)
      throw refuse.conflict(
        'operator-configuration',
        'The operator’s configuration follows OPERATIONAL_WEBHOOK_URL: unset that setting to stop operational notifications, or switch the configuration off.',
      );
    await configurationHooks().deleting(trx, id);
    await deleteWebhookRow(trx, id);
    await recordAudit(trx, {
      principal,
      action: 'webhook.delete',
      target: `webhook:${id}`,
      outcome: 'deleted',
      httpStatus: 204,
      before: { ...auditView(current.config), ativo: current.state.enabled },
    });
  });
}
