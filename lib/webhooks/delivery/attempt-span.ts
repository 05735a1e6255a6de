import 'server-only';
import { SpanKind, type Attributes, type Span, type SpanOptions } from '@opentelemetry/api';
import { failSpan } from '@/lib/observability/tracing';
import { attemptOutcome } from './attempt-metrics';
import type { Sent } from './destinations/destination';
import type { Decision } from './retry-policy';
import type { AttemptContext } from './store';

/**
 * The span of one delivery attempt (worker.ts), with what the delivery log's operators would look
 * for first: where it went (the destination kind's own attributes: scheme, host and port, never a
 * path, query or credential), how the receiver answered and what happens next. Ids of the delivery
 * and its configuration, never the event's data, the signature or the custom headers.
 */
export function attemptSpanOptions(context: AttemptContext, attempt: number, target: Attributes): SpanOptions {
  return {
    kind: SpanKind.CLIENT,
    attributes: {
      ...target,
      'app.webhook.delivery.id': context.delivery.id,
      'app.webhook.configuration.id': context.config.id,
      'app.webhook.event.type': context.event.tipo,
      'app.webhook.attempt': attempt,
    },
  };
}

/** The attempt's outcome (the metrics' words: delivered, http_5xx, timeout…) and the delivery's status after it. */
export function recordAttemptSpan(span: Span, sent: Sent, decision: Decision, written: boolean): void {
  const outcome = attemptOutcome(sent);
  if (sent.status !== null) span.setAttribute('http.response.status_code', sent.status);
  span.setAttribute('app.webhook.outcome', outcome);
  span.setAttribute('app.webhook.delivery.status', written ? decision.status : 'lease-lost');
  if (outcome !== 'delivered') failSpan(span, outcome);
}
