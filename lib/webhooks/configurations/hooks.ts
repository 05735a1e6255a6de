import type { Knex } from 'knex';

/**
 * What the rest of lib/webhooks does when a configuration changes (issue 44). Configurations sit
 * below the delivery engine and never import it; the engine (and alerts) hear of a change through
 * these hooks, run inside the change's own transaction, which the composition root wires
 * (lib/webhooks/wiring.ts, called at start and by the API's webhook operations).
 */
export type ConfigurationHooks = {
  /** Its receiver URL changed: the old receiver's circuit and pause say nothing of the new one. */
  receiverChanged(trx: Knex.Transaction, configId: string): Promise<void>;
  /** Deliveries were switched back on: staff ask for deliveries now, so the failing streak starts over too. */
  switchedOn(trx: Knex.Transaction, configId: string): Promise<void>;
  /** Before its row goes: what other parts keep of it (its delivery log, its alerts). */
  deleting(trx: Knex.Transaction, configId: string): Promise<void>;
};

// On globalThis: Next bundles instrumentation and route handlers apart, each with its own module instances.
const holder = globalThis as typeof globalThis & { __webhookConfigurationHooks?: ConfigurationHooks };

export function wireConfigurationHooks(hooks: ConfigurationHooks): void {
  holder.__webhookConfigurationHooks = hooks;
}

export function configurationHooks(): ConfigurationHooks {
  const hooks = holder.__webhookConfigurationHooks;
  // Loud, not silent: a delete that left its deliveries behind would surface much later.
  if (!hooks) throw new Error('Webhook configuration hooks are not wired: call wireWebhooks() (lib/webhooks/wiring.ts) first.');
  return hooks;
}
