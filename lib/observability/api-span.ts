import 'server-only';
import { context, propagation, SpanKind, trace, type TextMapGetter } from '@opentelemetry/api';
import { errorType, failSpan, isTracing, tracer } from './tracing';

/**
 * The span of one API request (lib/api/dispatch.ts), named as OpenTelemetry's HTTP conventions
 * say: `POST /api/v1/agendamentos/slots-livres/reservar`, the path template and never the path
 * (its ids would make every name different), just the method where no operation matched.
 *
 * It continues the caller's W3C trace (`traceparent`). Under the container image's command Next
 * answers the API through its catch-all route and has already opened the request's server span,
 * from the same header: this one is then its child, of kind internal.
 */
export type Answered = { operation: string; template?: string; reply: { status: number } };

const headerGetter: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

export function inApiSpan<A extends Answered>(request: Request, answer: () => Promise<A>): Promise<A> {
  if (!isTracing()) return answer();
  const active = context.active();
  const underNext = trace.getSpan(active) !== undefined;
  const parent = underNext ? active : propagation.extract(active, request.headers, headerGetter);
  const method = request.method;
  const span = tracer().startSpan(
    method,
    { kind: underNext ? SpanKind.INTERNAL : SpanKind.SERVER, attributes: { 'http.request.method': method } },
    parent,
  );
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      const answered = await answer();
      const status = answered.reply.status;
      if (answered.template) span.updateName(`${method} ${answered.template}`);
      span.setAttributes({
        'http.route': answered.template,
        'http.response.status_code': status,
        'app.operation.id': answered.operation,
      });
      // Server spans fail on 5xx only: a 4xx is the caller's mistake, answered as designed.
      if (status >= 500) failSpan(span, String(status));
      return answered;
    } catch (error) {
      failSpan(span, errorType(error));
      throw error;
    } finally {
      span.end();
    }
  });
}
