import 'server-only';
import type { Span } from '@opentelemetry/api';
import { log, redactError } from '@/lib/log';
import { inSpan } from '@/lib/observability/tracing';
import { recordAttemptMetrics } from './attempt-metrics';
import { attemptSpanOptions, recordAttemptSpan } from './attempt-span';
import type { Credentials, Destinations, Route, Sent, SendSettings } from './destinations';
import { NO_PAYLOAD_CONTROL } from '../payload-control/contract';
import { shapeMessage } from './payload/pipeline';
import { loggedHeaders, messageOf, outgoingMessage } from './message';
import { decide, type Decision, type RetrySettings } from './retry-policy';
import type { AttemptContext, AttemptRecord, Recorded } from './store';

/**
 * One attempt, end to end: sign the message, send it through its destination kind, decide what
 * the verdict means (retry-policy.ts), record it (with the circuit), and say so in the metrics,
 * the span and the log. Ids, codes and timings only ever leave it: the body and headers may carry
 * personal data or secrets.
 */
export type AttemptDeps = {
  destinations: Destinations;
  send: SendSettings;
  retry: RetrySettings;
  clock: () => number;
  /** The configuration's signing secrets: the current one, plus the previous while a rotation's overlap lasts. */
  signingSecrets: (context: AttemptContext, now: number) => string[];
  /** A broker target's credentials, opened for the attempt (none for HTTP, nor where not wired). */
  credentials?: (context: AttemptContext) => Credentials;
  /** Records the outcome (batched with other attempts' by the worker). */
  record: (record: AttemptRecord) => Promise<Recorded>;
  /** Records a delivery its transformation cancelled (`filtrada`): nothing was sent. */
  cancel?: (context: AttemptContext) => Promise<void>;
};

export async function attempt(deps: AttemptDeps, context: AttemptContext): Promise<void> {
  const attemptNo = context.delivery.attempts + 1;
  // The target is parsed once, by its kind, for the span and the sender alike.
  const route = deps.destinations.route(context.config.url);
  const options = attemptSpanOptions(context, attemptNo, route?.spanAttributes ?? {});
  await inSpan('webhook.attempt', options, (span) => sendAndRecord(deps, context, route, attemptNo, span));
}

async function sendAndRecord(
  deps: AttemptDeps,
  context: AttemptContext,
  route: Route | undefined,
  attemptNo: number,
  span: Span,
): Promise<void> {
  const guarded = await sendGuarded(deps, context, route);
  if (guarded === 'cancelled') {
    await deps.cancel?.(context);
    log.info('webhook.attempt_cancelled', { deliveryId: context.delivery.id, configId: context.config.id, attempt: attemptNo });
    return;
  }
  const { sent, requestHeaders, requestBody } = guarded;
  recordAttemptMetrics(sent, context.event.createdAt);
  const { verdict } = sent;
  const earlyProbe = isEarlyProbe(context, sent);
  const decision = decidedFor(context, sent, attemptNo, earlyProbe, deps);
  const outcome = {
    startedAt: sent.startedAt,
    durationMs: sent.durationMs,
    status: sent.status,
    body: sent.body,
    error: verdict.result === 'delivered' ? null : verdict.reason,
    outage: verdict.result === 'retry' && verdict.outage,
    requestHeaders,
    requestBody,
    ...pauseOf(sent, deps.retry),
    ...(earlyProbe ? { earlyProbe } : {}),
  };
  const recorded = await recordOrFallBack(deps, { context, outcome, decision });
  recordAttemptSpan(span, sent, decision, recorded.written);
  const configId = context.config.id;
  log.info('webhook.attempt', {
    deliveryId: context.delivery.id,
    configId,
    attempt: attemptNo,
    status: sent.status,
    error: outcome.error,
    durationMs: sent.durationMs,
    outcome: recorded.written ? decision.status : 'lease-lost',
  });
  if (recorded.circuit?.change === 'opened') {
    const { failures, openUntil } = recorded.circuit.state;
    log.warn('webhook.circuit_opened', { configId, failures, until: new Date(openUntil!).toISOString() });
  }
  if (recorded.circuit?.change === 'closed') log.info('webhook.circuit_closed', { configId });
  if (decision.disable && recorded.written) log.warn('webhook.config_disabled', { configId, reason: decision.disable });
}

/**
 * Whether the attempt probed a half-open circuit before its delivery was due (issue 45: the circuit
 * probes on its own cadence, with the oldest pending delivery, claims.ts).
 */
function isEarlyProbe(context: AttemptContext, sent: Sent): boolean {
  const { nextAttemptAt } = context.delivery;
  return context.config.circuitOpenUntil !== null && nextAttemptAt !== null && nextAttemptAt > sent.startedAt;
}

/**
 * What the verdict means for the delivery (retry-policy.ts), counting only the attempts its schedule
 * made: early probes that found the receiver still down leave its schedule as it was (its next
 * attempt stays when it was), so a long outage does not use up its retries; what they answer
 * otherwise (delivered, a permanent failure, the disable rule) holds as for any attempt.
 */
function decidedFor(context: AttemptContext, sent: Sent, attemptNo: number, earlyProbe: boolean, deps: AttemptDeps): Decision {
  const scheduled = attemptNo - context.delivery.earlyProbes;
  if (!earlyProbe) return decide(sent.verdict, scheduled, context.config.failingSince, deps.clock(), deps.retry);
  const decision = decide(sent.verdict, Math.max(1, scheduled - 1), context.config.failingSince, deps.clock(), deps.retry);
  if (decision.status !== 'pendente') return decision;
  return { ...decision, nextAttemptAt: context.delivery.nextAttemptAt };
}

/**
 * A receiver that answers 429 or 503 with Retry-After asks the sender to slow down (Standard
 * Webhooks): the whole configuration pauses until then (at most the schedule's longest step, as the
 * retry itself), not only this delivery.
 */
function pauseOf(sent: Sent, retry: RetrySettings): { pauseUntil?: number } {
  const { verdict } = sent;
  if (verdict.result !== 'retry' || verdict.retryAfterSeconds === undefined) return {};
  const seconds = Math.min(verdict.retryAfterSeconds, Math.max(...retry.scheduleSeconds));
  return seconds > 0 ? { pauseUntil: sent.startedAt + sent.durationMs + Math.round(seconds * 1000) } : {};
}

type Guarded = { sent: Sent; requestHeaders: Record<string, string>; requestBody: string | null };

/**
 * Shapes (payload control: minimise → transform), signs and sends one attempt. A transformation
 * that fails is this attempt's failure, `transformacao`, its reason as the body, counted by the
 * circuit like an outage (no request could be made); one that cancels sends nothing. Whatever is
 * thrown on the way (an unreadable secret, a target no kind accepts, a destination's bug) becomes
 * this attempt's failure, `erro-interno`, an outage, so it is recorded, retried by the schedule and
 * counted by the circuit like any other: an exception never leaves a delivery leased and unrecorded.
 */
async function sendGuarded(deps: AttemptDeps, context: AttemptContext, route: Route | undefined): Promise<Guarded | 'cancelled'> {
  const startedAt = deps.clock();
  let requestHeaders: Record<string, string> = {};
  try {
    const control = context.config.payload ?? NO_PAYLOAD_CONTROL;
    const shaped = await shapeMessage(context.config.id, messageOf(context.event), control, context.config.headers);
    if (shaped.outcome === 'cancelled') return 'cancelled';
    if (shaped.outcome === 'failed') {
      const verdict = { result: 'retry', reason: 'transformacao', outage: true } as const;
      const sent: Sent = { startedAt, durationMs: Math.max(0, deps.clock() - startedAt), verdict, status: null, body: shaped.reason };
      return { sent, requestHeaders, requestBody: null };
    }
    const message = outgoingMessage(
      context.delivery.id,
      context.event,
      context.config.headers,
      deps.signingSecrets(context, startedAt),
      startedAt,
      shaped,
    );
    requestHeaders = loggedHeaders(message);
    if (!route) throw new Error('no destination kind accepts this target');
    const credentials = deps.credentials?.(context) ?? null;
    const sent = await route.send(message, deps.send, credentials, context.event.usuarioId);
    return { sent, requestHeaders, requestBody: message.body };
  } catch (error) {
    log.error('webhook.attempt_not_sent', { deliveryId: context.delivery.id, ...redactError(error) });
    const sent: Sent = {
      startedAt,
      durationMs: Math.max(0, deps.clock() - startedAt),
      verdict: { result: 'retry', reason: 'erro-interno', outage: true },
      status: null,
      body: null,
    };
    return { sent, requestHeaders, requestBody: null };
  }
}

/**
 * Records the outcome. Should that write fail for the record itself (not the database), the
 * attempt is recorded again without what the receiver answered and what was sent, so its retry
 * schedule still holds; only when that fails too (the database is away) does the lease stay, to
 * run out.
 */
async function recordOrFallBack(deps: AttemptDeps, record: AttemptRecord): Promise<Recorded> {
  try {
    return await deps.record(record);
  } catch (error) {
    log.error('webhook.outcome_not_recorded', { deliveryId: record.context.delivery.id, ...redactError(error) });
    const bare = { ...record.outcome, body: null, requestHeaders: {}, requestBody: null };
    return deps.record({ ...record, outcome: bare });
  }
}
