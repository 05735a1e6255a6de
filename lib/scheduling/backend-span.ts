import 'server-only';
import { SpanKind, type Span, type SpanOptions } from '@opentelemetry/api';
import { failSpan } from '@/lib/observability/tracing';
import type { ProcedureAnswer, SchedulingBackend } from './backend';
import { isCodigoP, type SlotReservationRequest } from './contract';

/**
 * The span of one reserve or release sent to the scheduling back-end (service.ts): the embedded
 * scheduler's transaction, or the Oracle procedure's round trip (a client call to another system).
 * Its attributes are the back-end's name and the answer's codes, never a request field: those
 * identify the patient (cdPessoaFisica, cdUsuarioConvenio), and TOKEN_RESERVA_P releases the slot.
 */
export function backendSpanName(request: SlotReservationRequest): string {
  return request.ieOpcao === 'R' ? 'scheduling.reserve' : 'scheduling.release';
}

export function backendSpanOptions(backend: SchedulingBackend['name'], request: SlotReservationRequest): SpanOptions {
  return {
    kind: backend === 'oracle' ? SpanKind.CLIENT : SpanKind.INTERNAL,
    attributes: { 'app.scheduling.backend': backend, 'app.scheduling.ie_opcao': request.ieOpcao },
  };
}

/** CODIGO_P (or `outside-contract`), IE_RESERVADO_P, and why a 9 failed; a 9 fails the span. */
export function recordBackendAnswer(span: Span, answer: ProcedureAnswer): void {
  const codigo = isCodigoP(answer.CODIGO_P) ? answer.CODIGO_P : 'outside-contract';
  span.setAttributes({
    'app.scheduling.codigo_p': codigo,
    'app.scheduling.ie_reservado': answer.IE_RESERVADO_P === 'S' ? 'S' : 'N',
    'app.scheduling.failure': answer.failure?.kind,
  });
  if (codigo === '9' || codigo === 'outside-contract') failSpan(span, answer.failure?.kind ?? codigo);
}
