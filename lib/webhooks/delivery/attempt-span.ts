import 'server-only';
import { SpanKind, type Attributes, type Span, type SpanOptions } from '@opentelemetry/api';
import { failSpan } from '@/lib/observability/tracing';
import { attemptOutcome } from './attempt-metrics';
import type { Decision } from './retry-policy';
import type { SendResult } from './send';
import type { AttemptContext } from './store';

/**
 * The span of one delivery attempt (worker.ts), with what the delivery log's operators would look
 * for first: where it went, how the receiver answered and what happens next. Where is the scheme,
 * host and port only: a receiver's path or query may carry its own secret (chat webhooks put a
 * token in the path). Ids of the delivery and its configuration, never the event's data, the
 * signature or the custom headers.
 */
export function attemptSpanOptions(context: AttemptContext, attempt: number): SpanOptions {
  return {
    kind: SpanKind.CLIENT,
    attributes: {
      'http.request.method': 'POST',
      ...targetAttributes(context.config.url),
      'app.webhook.delivery.id': context.delivery.id,
      'app.webhook.configuration.id': context.config.id,
      'app.webhook.event.type': context.event.tipo,
      'app.webhook.attempt': attempt,
    },
  };
}

/** Scheme, host and port of the target; none for a stored URL that no longer parses (the attempt records why it failed). */
function targetAttributes(target: string): Attributes {
  if (!URL.canParse(target)) return {};
  const url = new URL(target);
  return {
    'url.scheme': url.protocol.slice(0, -1),
    'server.address': url.hostname.replace(/^\[(.*)\]$/, '$1'),
    'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
  };
}

/** The attempt's outcome (the metrics' words: delivered, http_5xx, timeout…) and the delivery's status after it. */
export function recordAttemptSpan(span: Span, result: SendResult, decision: Decision, written: boolean): void {
  const outcome = attemptOutcome(result);
  if (result.status !== null) span.setAttribute('http.response.status_code', result.status);
  span.setAttribute('app.webhook.outcome', outcome);
  span.setAttribute('app.webhook.delivery.status', written ? decision.status : 'lease-lost');
  if (outcome !== 'delivered') failSpan(span, outcome);
}
