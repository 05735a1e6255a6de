import 'server-only';
import { getDb } from '@/lib/db/handle';
import type { WebhookDetail } from '../configurations/contract';
import type { StoredWebhook } from '../configurations/store/rows';
import { switchView, viewOf } from '../configurations/service/views';
import { phaseOf, type CircuitState } from './circuit';
import { findReceiverState } from './store';

/**
 * The GET's answer: the configuration, why and since when deliveries stopped, and its receiver's
 * circuit, which is the delivery engine's state (store/receivers.ts): so the detail is composed here.
 */
export async function detailOf(stored: StoredWebhook): Promise<WebhookDetail> {
  const receiver = await findReceiverState(await getDb(), stored.config.id);
  return { ...viewOf(stored), desativacao: switchView(stored.state), circuito: circuitView(receiver.circuit, Date.now()) };
}

function circuitView({ failures, openUntil, openedAt }: CircuitState, now: number): WebhookDetail['circuito'] {
  if (openUntil === null) return null;
  return {
    estado: phaseOf({ openUntil }, now) === 'open' ? 'aberto' : 'teste',
    falhasSeguidas: failures,
    desde: new Date(openedAt ?? openUntil).toISOString(),
    proximaTentativa: new Date(openUntil).toISOString(),
  };
}
