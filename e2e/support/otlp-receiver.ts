import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OTLP/HTTP trace receiver on 127.0.0.1 for the tracing specs, standing in for a collector: it
 * takes what the server under test exports to `/v1/traces` and answers 200 as a collector does.
 * Exports in OTLP's JSON encoding (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) are read: every span is
 * kept with its attributes flattened to plain values. Protobuf ones (the default protocol) are kept
 * as they came, for a spec that only asks whether a trace arrived. Nothing is mocked: the server's
 * own exporter sends the spans over TCP.
 */
export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status: { code?: number; message?: string };
  service: string;
};

type OtlpValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type OtlpAttribute = { key: string; value: OtlpValue };
type OtlpSpan = Omit<ReceivedSpan, 'attributes' | 'service' | 'status'> & { attributes?: OtlpAttribute[]; status?: ReceivedSpan['status'] };
type OtlpExport = {
  resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
};

function plain(attributes: OtlpAttribute[] = []): ReceivedSpan['attributes'] {
  return Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue ?? '')),
    ]),
  );
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Every JSON export as received, to search for text that must never leave the server. */
  readonly bodies: string[] = [];
  readonly protobufBodies: Buffer[] = [];
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const type = request.headers['content-type'] ?? '';
      if (request.url !== '/v1/traces' || !/^application\/(json|x-protobuf)/.test(type)) {
        response.writeHead(415).end();
        return;
      }
      if (type.startsWith('application/x-protobuf')) {
        this.protobufBodies.push(Buffer.concat(chunks));
        response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      this.bodies.push(body);
      const exported = JSON.parse(body) as OtlpExport;
      for (const resourceSpans of exported.resourceSpans ?? []) {
        const service = String(plain(resourceSpans.resource?.attributes)['service.name'] ?? '');
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            this.spans.push({ ...span, attributes: plain(span.attributes), status: span.status ?? {}, service });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it (the exporter adds /v1/traces). */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Whether a protobuf export carried a span of `traceId` (protobuf writes it as its 16 bytes). */
  receivedProtobufTrace(traceId: string): boolean {
    const bytes = Buffer.from(traceId, 'hex');
    return this.protobufBodies.some((body) => body.includes(bytes));
  }

  inTrace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  /** Waits until a span `matching` has arrived (spans leave in batches, OTEL_BSP_SCHEDULE_DELAY apart). */
  async waitFor(matching: (span: ReceivedSpan) => boolean, timeoutMs = 10_000): Promise<ReceivedSpan> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.spans.find(matching);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`OTLP receiver: no such span among ${this.spans.length} received`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
