import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, describe, expect, it } from 'vitest';
import { scrubbingExporter, withoutQueryStrings } from './span-scrubbing';

/**
 * Spans leave without query strings, whoever made them: the SDK's real provider and processor
 * export through the scrubbing exporter into the SDK's in-memory exporter, standing in for OTLP.
 * The e2e spec e2e/api/traces.spec.ts asks the same of a running server and a real receiver.
 */
const TOKEN = 'b64url-one-time-token_AbC123';
const CODE = 'oidc-code-XyZ789';
const STATE = 'oidc-state-QwE456';

describe('span scrubbing', () => {
  const memory = new InMemorySpanExporter();
  const exported: unknown[][] = [];
  const provider = new TracerProvider({
    spanProcessors: [
      new SimpleSpanProcessor({
        exporter: scrubbingExporter({
          export: (spans, done) => (exported.push(spans), memory.export(spans, done)),
          shutdown: () => memory.shutdown(),
        }),
      }),
    ],
  });
  const tracer: Tracer = provider.getTracer('test');
  afterAll(() => provider.shutdown());

  it('cuts the query of every URL or path in a text, and nothing else', () => {
    expect(withoutQueryStrings(`/definir-senha?token=${TOKEN}`)).toBe('/definir-senha');
    expect(withoutQueryStrings(`GET /api/auth/callback/oidc?code=${CODE}&state=${STATE}`)).toBe('GET /api/auth/callback/oidc');
    expect(withoutQueryStrings(`fetch POST https://idp.exemplo.com.br/token?x=1#frag`)).toBe(
      'fetch POST https://idp.exemplo.com.br/token#frag',
    );
    expect(withoutQueryStrings('Redirect to http://localhost:3000/sign-in?callbackUrl=%2F and /x?y=1 too')).toBe(
      'Redirect to http://localhost:3000/sign-in and /x too',
    );
    expect(withoutQueryStrings('GET /sign-in')).toBe('GET /sign-in');
    expect(withoutQueryStrings('Is it done?')).toBe('Is it done?');
  });

  it('exports Next’s request span without the one-time link’s token, nor the OIDC callback’s code and state', () => {
    const request = tracer.startSpan(`GET /definir-senha?token=${TOKEN}`, {
      kind: SpanKind.SERVER,
      attributes: {
        'http.method': 'GET',
        'http.target': `/definir-senha?token=${TOKEN}`,
        'http.url': `http://localhost:3000/api/auth/callback/oidc?code=${CODE}&state=${STATE}`,
        'url.full': `https://console.exemplo.com.br/definir-senha?token=${TOKEN}`,
        'url.query': `token=${TOKEN}`,
        'next.route': '/definir-senha',
        'app.urls': [`/a?token=${TOKEN}`, '/b'],
        'app.nested': { target: `/c?code=${CODE}` },
        'http.status_code': 200,
      },
      links: [{ context: tracer.startSpan('caller').spanContext(), attributes: { 'url.full': `/d?state=${STATE}` } }],
    });
    request.recordException(new Error(`Redirect to /sign-in?callbackUrl=%2Fdefinir-senha%3Ftoken%3D${TOKEN}`));
    request.setStatus({ code: SpanStatusCode.ERROR, message: `failed at /api/auth/callback/oidc?code=${CODE}` });
    request.end();

    const span = memory.getFinishedSpans().find((each) => each.kind === SpanKind.SERVER)!;
    expect(span.name).toBe('GET /definir-senha');
    expect(span.attributes).toEqual({
      'http.method': 'GET',
      'http.target': '/definir-senha',
      'http.url': 'http://localhost:3000/api/auth/callback/oidc',
      'url.full': 'https://console.exemplo.com.br/definir-senha',
      'next.route': '/definir-senha',
      'app.urls': ['/a', '/b'],
      'app.nested': { target: '/c' },
      'http.status_code': 200,
    });
    expect(span.links[0]!.attributes).toEqual({ 'url.full': '/d' });
    expect(span.events[0]!.attributes?.['exception.message']).toBe('Redirect to /sign-in');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'failed at /api/auth/callback/oidc' });
    // What the exporter holds is what it would send: the span's own context, times and resource.
    expect(span.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span.duration).toEqual(expect.any(Array));
    expect(span.resource.attributes).toHaveProperty(['service.name']);
    const sent = JSON.stringify(
      memory.getFinishedSpans().map(({ name, attributes, events, links, status }) => ({ name, attributes, events, links, status })),
    );
    for (const secret of [TOKEN, CODE, STATE]) expect(sent).not.toContain(secret);
  });

  it('leaves statements as they are, and hands a span with no query over untouched', () => {
    const statement = tracer.startSpan('SELECT staff_users', {
      attributes: { 'db.query.text': 'select * from "staff_users" where "id" = ? and "x" = ?/2' },
    });
    statement.end();
    const plain = tracer.startSpan('GET /sign-in', { attributes: { 'http.target': '/sign-in' } });
    plain.end();
    const [sentStatement, sentPlain] = exported.slice(-2).map((batch) => batch[0]);
    expect(memory.getFinishedSpans().at(-2)!.attributes['db.query.text']).toBe('select * from "staff_users" where "id" = ? and "x" = ?/2');
    // No copy when there is nothing to cut: the SDK's own span goes on.
    expect(sentStatement).toBe(statement);
    expect(sentPlain).toBe(plain);
  });
});
