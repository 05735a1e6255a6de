import type { Attributes, Link } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter, TimedEvent } from '@opentelemetry/sdk-trace';

/**
 * No query string leaves the process in a span (issue 27). Queries carry secrets: the one-time
 * link that sets a staff password (`/definir-senha?token=…`), the OIDC callback's `code` and
 * `state`, a caller's own text. Next.js records them itself (`http.target` is the request's URL,
 * a server fetch's span is named after its URL, an error's message may quote one), and other
 * instrumentation may name its attributes as it likes, so the rule is kept where every span
 * passes, whoever made it: the exporter. Each URL or path in a span's name, attributes, status
 * message, events and links loses its query; `url.query` is dropped. No parameter is kept: none
 * is needed to read a trace, and an allow-list would be one more thing to get wrong.
 *
 * Types only from the SDK: this module is imported by tracing-sdk.ts, inside the SDK's start.
 */

/** A URL (scheme and host optional) or path followed by its query: the query, up to a space or fragment, goes. */
const URL_WITH_QUERY = /((?:[a-z][a-z0-9+.-]*:\/\/[^\s/?#]*)?\/[^\s?#]*)\?[^\s#]*/gi;

/** The semantic conventions' query attribute: a query and nothing else. */
const DROPPED = new Set(['url.query']);
/** Statements with placeholders (lib/db/query-spans.ts), never values: SQLite's `?` are placeholders, not queries. */
const KEPT_AS_IS = new Set(['db.query.text']);

/** `text` with the query string of every URL or path in it cut off. */
export function withoutQueryStrings(text: string): string {
  return text.includes('?') ? text.replace(URL_WITH_QUERY, '$1') : text;
}

/** A value without queries (attribute values may be strings, arrays or maps of them); the same value when it held none. */
function scrubValue(value: unknown): unknown {
  if (typeof value === 'string') return withoutQueryStrings(value);
  if (Array.isArray(value)) {
    const items = value.map(scrubValue);
    return items.every((item, i) => item === value[i]) ? value : items;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return scrubAttributes(value as Attributes);
  }
  return value;
}

/** The attributes without queries; the same object when none had one, to copy nothing in the common case. */
function scrubAttributes(attributes: Attributes): Attributes {
  let scrubbed: Attributes | undefined;
  for (const [key, value] of Object.entries(attributes)) {
    const dropped = DROPPED.has(key);
    const kept = dropped || KEPT_AS_IS.has(key) ? value : scrubValue(value);
    if (!dropped && kept === value) continue;
    scrubbed ??= { ...attributes };
    if (dropped) delete scrubbed[key];
    else scrubbed[key] = kept;
  }
  return scrubbed ?? attributes;
}

function scrubEvent(event: TimedEvent): TimedEvent {
  const name = withoutQueryStrings(event.name);
  const attributes = event.attributes && scrubAttributes(event.attributes);
  return name === event.name && attributes === event.attributes ? event : { ...event, name, attributes };
}

function scrubLink(link: Link): Link {
  const attributes = link.attributes && scrubAttributes(link.attributes);
  return attributes === link.attributes ? link : { ...link, attributes };
}

/** The span as it may leave: itself when it holds no query, else a copy without them. */
function scrubSpan(span: ReadableSpan): ReadableSpan {
  const name = withoutQueryStrings(span.name);
  const attributes = scrubAttributes(span.attributes);
  const events = span.events.map(scrubEvent);
  const links = span.links.map(scrubLink);
  const message = span.status.message === undefined ? undefined : withoutQueryStrings(span.status.message);
  const status = message === span.status.message ? span.status : { ...span.status, message };
  const unchanged =
    name === span.name &&
    attributes === span.attributes &&
    status === span.status &&
    events.every((event, i) => event === span.events[i]) &&
    links.every((link, i) => link === span.links[i]);
  if (unchanged) return span;
  // A plain object: the SDK's span keeps some of these as getters, which a spread would lose.
  return {
    name,
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status,
    attributes,
    links,
    events,
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/** `exporter`, sent every span without its queries. */
export function scrubbingExporter(exporter: SpanExporter): SpanExporter {
  return {
    export: (spans, resultCallback) => exporter.export(spans.map(scrubSpan), resultCallback),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
