/**
 * What a custom webhook header may be. Pure (no server imports): the contract schema runs these
 * checks for the PUT route and the console's editor alike. The aim is that no stored header can
 * split or reframe the notification request the delivery sends.
 */

export const MAX_WEBHOOK_HEADERS = 20;
export const MAX_HEADER_NAME_LENGTH = 256;
export const MAX_HEADER_VALUE_BYTES = 4096;
/**
 * All custom headers together, as `name: value` lines. HTTP servers refuse larger header blocks
 * (Node's default limit is 16 KiB, nginx's 8 KiB per line), so a bigger set could never be
 * delivered; it also keeps every valid PUT body well under the API's 64 KiB body limit.
 */
export const MAX_HEADERS_TOTAL_BYTES = 16_384;

/** RFC 9110 §5.6.2 token: the only characters a field name may have. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Names the delivery itself owns: connection management and message framing (RFC 9110 §7.6.1,
 * RFC 9112 §6, §7), the target host, and the body's media type and coding. A receiver-supplied
 * value for any of them could smuggle a second request or make the body unreadable.
 */
const RESERVED_NAMES = new Set([
  'host',
  'content-length',
  'content-type',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'keep-alive',
]);

export type HeaderNameViolation = 'headerNameToken' | 'headerNameReserved';
export type HeaderValueViolation =
  'headerValueLineBreak' | 'headerValueControl' | 'headerValueCharset' | 'headerValueTooLong' | 'noSurroundingSpaces';

/**
 * What the delivery's HTTP client can send in a field value: visible ASCII, space, tab and the
 * characters U+0080–U+00FF (RFC 9110 §5.5 allows those bytes as obs-text). Node refuses, while
 * building the request, any character past U+00FF (`€`, `–`, emoji). Latin-1 letters (`ação`) pass
 * and go out as their UTF-8 bytes, which a receiver reading UTF-8 gets back as written.
 */
const HTTP_FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export function checkHeaderName(name: string): HeaderNameViolation | undefined {
  if (!TOKEN.test(name)) return 'headerNameToken';
  const lower = name.toLowerCase();
  if (RESERVED_NAMES.has(lower) || lower.startsWith('proxy-')) return 'headerNameReserved';
  return undefined;
}

export function checkHeaderValue(value: string): HeaderValueViolation | undefined {
  // CR, LF and NUL end or truncate a header line: the classic header-injection characters.
  if (/[\r\n\u0000]/.test(value)) return 'headerValueLineBreak';
  // RFC 9110 §5.5: no other control character than HTAB; HTTP clients refuse them at send time.
  if (/[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value)) return 'headerValueControl';
  if (!HTTP_FIELD_VALUE.test(value)) return 'headerValueCharset';
  if (utf8Length(value) > MAX_HEADER_VALUE_BYTES) return 'headerValueTooLong';
  // Clients trim surrounding whitespace silently; refusing it keeps the stored value the sent one.
  if (/^[ \t]|[ \t]$/.test(value)) return 'noSurroundingSpaces';
  return undefined;
}

/** Index of every header whose name repeats an earlier one, ignoring case. */
export function duplicateHeaderIndexes(names: readonly string[]): number[] {
  const seen = new Set<string>();
  const duplicates: number[] = [];
  names.forEach((name, index) => {
    const key = name.toLowerCase();
    if (seen.has(key)) duplicates.push(index);
    seen.add(key);
  });
  return duplicates;
}

/** Bytes the headers take on the wire: `name: value` plus CRLF each. */
export function headersWireLength(headers: readonly { chave: string; valor: string }[]): number {
  return headers.reduce((total, header) => total + utf8Length(header.chave) + utf8Length(header.valor) + 4, 0);
}

export function utf8Length(value: string): number {
  return new TextEncoder().encode(value).byteLength;
}

/**
 * Header names whose values are likely credentials (Authorization, Cookie, X-Api-Key, X-Token,
 * X-Signature…): the console's editor masks those values until shown and the delivery log never
 * shows them; harmless ones (X-Origem) are shown in both.
 */
// In English and in Portuguese, the partners' other language (X-Chave-Api, X-Senha, X-Segredo…).
const SECRET_LOOKING =
  /authorization|cookie|key|token|secret|password|passwd|signature|credential|auth|chave|senha|segredo|assinatura|credencia/i;

export function looksSecret(headerName: string): boolean {
  return SECRET_LOOKING.test(headerName);
}
