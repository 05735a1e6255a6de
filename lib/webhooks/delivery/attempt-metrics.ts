import 'server-only';
import { metrics } from '@/lib/observability/metrics';
import type { AttemptError } from './contract';
import type { Sent } from './destinations/destination';

/** The metrics' outcome of each attempt error (the delivery log's own codes are pt-BR). */
const ERROR_OUTCOMES: Record<Exclude<AttemptError, 'status-http'>, string> = {
  'tempo-esgotado': 'timeout',
  'conexao-recusada': 'connection_refused',
  dns: 'dns',
  'destino-bloqueado': 'blocked',
  redirecionamento: 'redirect',
  'erro-rede': 'network',
  'cabecalho-invalido': 'invalid_header',
  tls: 'tls',
  'erro-interno': 'internal_error',
  'autenticacao-recusada': 'auth_refused',
  'sem-rota': 'no_route',
  'confirmacao-negativa': 'nack',
  'limite-conexoes': 'connection_limit',
  transformacao: 'transform_failed',
};

/** delivered, http_4xx, http_5xx, http_other, or the failure's outcome: a handful of values whatever the receiver does. */
export function attemptOutcome(result: Pick<Sent, 'status' | 'verdict'>): string {
  if (result.verdict.result === 'delivered') return 'delivered';
  const { reason } = result.verdict;
  if (reason === 'status-http') {
    const status = result.status ?? 0;
    if (status >= 400 && status < 500) return 'http_4xx';
    if (status >= 500 && status < 600) return 'http_5xx';
    return 'http_other';
  }
  return ERROR_OUTCOMES[reason];
}

/** Counts and times one attempt; a delivered one also gives its event's publish-to-receipt time. */
export function recordAttemptMetrics(result: Sent, publishedAt: number): void {
  const m = metrics();
  const outcome = attemptOutcome(result);
  m.attempts.inc({ outcome });
  m.attemptDuration.observe({ outcome }, result.durationMs / 1000);
  if (outcome === 'delivered') m.deliveryLatency.observe(Math.max(0, result.startedAt + result.durationMs - publishedAt) / 1000);
}
