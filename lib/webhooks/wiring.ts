import 'server-only';
import { wireConfigurationHooks } from './configurations/hooks';
import { closeCircuit, deleteDeliveriesOf, restartReceiver } from './delivery/store';
import { deleteAlertsOf } from './alerts/store';

/**
 * The composition root of lib/webhooks (issue 44): configurations sit below the delivery engine and
 * alerts and never import them; what those do when a configuration changes is wired here, once per
 * process. Called at start (lib/startup.ts), by the API's webhook operations (lib/api/operations/
 * webhooks.ts, for a process that serves them without the start) and by the test contracts.
 */
export function wireWebhooks(): void {
  wireConfigurationHooks({
    receiverChanged: closeCircuit,
    switchedOn: restartReceiver,
    async deleting(trx, configId) {
      await deleteDeliveriesOf(trx, configId);
      await deleteAlertsOf(trx, configId);
    },
  });
}
