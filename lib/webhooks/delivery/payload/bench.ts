import 'server-only';
import type { Principal } from '@/lib/auth/principal';
import type { WebhookMessage } from '../../events/messages';
import { getWebhook } from '../../configurations/service/access';
import { WEBHOOK_EVENT_FLAGS } from '../../events/types';
import type { PayloadBench, PayloadBenchResult } from '../../payload-control/bench-contract';
import { minimise } from '../../payload-control/fields';
import { matchesFilter } from '../../payload-control/filter';
import { sampleMessage, pointersOf } from '../../payload-control/samples';
import { payloadControlAfter, assertTransformCompiles } from '../../payload-control/settings';
import { transform } from './transform';

/**
 * Runs a message through a configuration's payload control, saved or as sent, with the engine's
 * own code: the filter, minimise, and the transformation in the same sandbox and limits (its own
 * engine, `bench:` keyed, so a trial never touches the code deliveries run). Nothing is saved or sent.
 */
export async function benchPayload(principal: Principal, configId: string, input: PayloadBench): Promise<PayloadBenchResult> {
  const stored = await getWebhook(principal, configId);
  await assertTransformCompiles(input.transformacao);
  const control = payloadControlAfter(stored.payload, input);
  const subscribed = WEBHOOK_EVENT_FLAGS.find((flag) => stored.config[flag]) ?? WEBHOOK_EVENT_FLAGS[0];
  const message = (input.mensagem as WebhookMessage | undefined) ?? sampleMessage(input.tipo ?? subscribed, stored.config.usuarioId);
  const passes = matchesFilter(control.filter, message);
  const minimizado = minimise(message, control.fields);
  const campos = pointersOf(message);
  if (control.transform === null) {
    return {
      mensagem: message,
      filtro: { passa: passes },
      minimizado,
      transformacao: { resultado: 'sem-transformacao' },
      corpo: passes ? JSON.stringify(minimizado) : null,
      campos,
    };
  }
  const headers = Object.fromEntries(stored.config.headers.map(({ chave, valor }) => [chave, valor]));
  const result = await transform(`bench:${configId}`, control.transform, { type: message.type, payload: minimizado, headers });
  const transformacao =
    result.outcome === 'sent'
      ? { resultado: 'enviar' as const, payload: result.payload, cabecalhos: result.headers }
      : result.outcome === 'cancelled'
        ? { resultado: 'cancelar' as const }
        : { resultado: 'falhou' as const, motivo: result.reason };
  const corpo = passes && result.outcome === 'sent' ? JSON.stringify(result.payload) : null;
  return { mensagem: message, filtro: { passa: passes }, minimizado, transformacao, corpo, campos };
}
