import 'server-only';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { log, redactError } from '@/lib/log';
import type { AttemptError } from '../../contract';
import { checkHeaderName, checkHeaderValue } from '../../../configurations/header-policy';
import { BlockedTargetError, isBlockedAddress, type Resolve } from '../../checked-lookup';
import { checkedLookup } from '../../connection/guarded';
import { retryAfterSeconds } from '../../retry-policy';
import type { OutgoingMessage, Sender, SendSettings, Sent, Verdict } from '../destination';
import type { HttpTarget } from '../../../configurations/destinations/http';

/**
 * HTTP(S) receivers, the first destination kind: POST the signed message, follow no redirect, read
 * at most RESPONSE_READ_LIMIT bytes of the answer (keeping the first 1 KiB) and give up after the
 * timeout, so a receiver that streams forever or answers slowly costs one in-flight slot until then
 * and nothing more. Each attempt resolves the receiver's name itself and connects only to an address
 * the private-target policy allows (checked-lookup.ts).
 */
const RESPONSE_READ_LIMIT = 64 * 1024;
const KEPT_BODY = 1024;

type Answer = Omit<Sent, 'startedAt' | 'durationMs'>;

export function httpSender(options: { resolve: Resolve }): Sender<HttpTarget> {
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  return {
    send: (target, message, settings) => post(target.url, message, settings, options.resolve, agents),
    close() {
      agents.http.destroy();
      agents.https.destroy();
      return Promise.resolve();
    },
  };
}

function post(
  url: URL,
  message: OutgoingMessage,
  settings: SendSettings,
  resolve: Resolve,
  agents: { http: http.Agent; https: https.Agent },
): Promise<Sent> {
  // When the request left: its last byte handed to the network ('finish' below), or, when it never
  // got that far, when it was begun. The log's time and the answer's duration are read from it, so a
  // busy event loop between building the request and writing it is not counted to the receiver.
  let startedAt = Date.now();
  const finish = (answer: Answer): Sent => ({ ...answer, startedAt, durationMs: Math.max(0, Math.round(Date.now() - startedAt)) });
  const failed = (reason: AttemptError): Sent => finish({ verdict: failure(reason), status: null, body: null });
  const failedWith = (error: unknown): Sent => {
    const reason = classify(error);
    // The operator's only way to learn what went wrong (a bug of ours): type, code, first line.
    if (reason === 'erro-interno') log.warn('webhook.attempt_internal_error', { kind: 'http', ...redactError(error) });
    return failed(reason);
  };

  // A value stored before the save-time check refused it (or a name that policy refuses): Node would
  // throw while building the request. It is this attempt's failure, named, not an exception.
  if (message.customHeaders.some(({ chave, valor }) => checkHeaderName(chave) !== undefined || checkHeaderValue(valor) !== undefined)) {
    return Promise.resolve(failed('cabecalho-invalido'));
  }
  const headers: Record<string, string> = { ...message.headers };
  for (const { chave, valor } of message.customHeaders) headers[chave] = valor;
  const literal = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  // An IP literal is not looked up, so the lookup's check would not run: check it here.
  if (isIP(literal) && !settings.allowPrivateTargets && isBlockedAddress(literal)) return Promise.resolve(failed('destino-bloqueado'));
  const secure = url.protocol === 'https:';
  return new Promise((done) => {
    let settled = false;
    // Set once the request exists; `settle` may run before that (a request Node refused to build).
    let timer: NodeJS.Timeout | undefined = undefined;
    const settle = (sent: Sent) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done(sent);
    };
    let request: http.ClientRequest | undefined;
    // `fresh`: on a connection of its own, not one kept alive from an earlier attempt (see 'error').
    const send = (fresh: boolean) => {
      const sending = (secure ? https : http).request(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(message.body)) },
          agent: fresh ? false : secure ? agents.https : agents.http,
          lookup: checkedLookup(resolve, settings.allowPrivateTargets),
        },
        (response) => {
          const chunks: Buffer[] = [];
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            if (read < KEPT_BODY) chunks.push(chunk);
            read += chunk.length;
            if (read > RESPONSE_READ_LIMIT) response.destroy();
          });
          const answer = () => {
            const status = response.statusCode ?? 0;
            const body = Buffer.concat(chunks).subarray(0, KEPT_BODY).toString('utf8');
            settle(finish({ verdict: verdictOf(status, response.headers['retry-after']), status, body }));
          };
          response.on('end', answer);
          response.on('close', answer);
          response.on('error', answer);
        },
      );
      request = sending;
      sending.on('error', (error: NodeJS.ErrnoException) => {
        // A receiver closed the kept-alive connection just as this request went out on it (its idle
        // timeout and our reuse crossed; Node's default is 5 s): it answered nothing, so the request
        // goes again, once, on a connection of its own, as Node's documentation advises
        // (ClientRequest.reusedSocket). Counted as a failed attempt, it read as an outage that never was.
        if (sending.reusedSocket && !fresh && STALE_CONNECTION_CODES.has(error.code ?? '') && !settled) return send(true);
        settle(failedWith(error));
      });
      sending.on('finish', () => {
        if (!settled) startedAt = Date.now();
      });
      sending.end(message.body);
    };
    try {
      send(false);
    } catch (error) {
      // Thrown while building the request (a header Node refuses, say): no request went out.
      return settle(failedWith(error));
    }
    timer = setTimeout(() => {
      settle(failed('tempo-esgotado'));
      request?.destroy();
    }, settings.timeoutMs);
  });
}

/** How a kept-alive connection the receiver has just closed fails the request written on it. */
const STALE_CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE']);

/**
 * What a receiver's status means: a 2xx delivers; 410 Gone fails the delivery and switches the
 * configuration off; a 5xx is an outage (the circuit counts it); 429 and 503 may ask for a later
 * retry (Retry-After); any other answer is retried on the schedule without counting as an outage.
 */
export function verdictOf(status: number, retryAfter: string | undefined, now = Date.now()): Verdict {
  if (status >= 200 && status < 300) return { result: 'delivered' };
  if (status === 410) return { result: 'permanent', reason: 'status-http', disable: 'receptor-410' };
  if (status >= 300 && status < 400) return { result: 'retry', reason: 'redirecionamento', outage: false };
  const later = status === 429 || status === 503 ? retryAfterSeconds(retryAfter, now) : undefined;
  return { result: 'retry', reason: 'status-http', outage: status >= 500, ...(later === undefined ? {} : { retryAfterSeconds: later }) };
}

/** A failure without an answer: every one is retried; only a blocked target is not an outage (the policy refused it). */
function failure(reason: AttemptError): Verdict {
  return { result: 'retry', reason, outage: reason !== 'destino-bloqueado' };
}

/** Node's codes for a header it will not send (invalid characters or name). */
const INVALID_HEADER_CODES = new Set(['ERR_INVALID_CHAR', 'ERR_HTTP_INVALID_HEADER_VALUE', 'ERR_INVALID_HTTP_TOKEN']);

/** A TLS handshake or certificate failure: OpenSSL's certificate codes, Node's ERR_TLS_* and ERR_SSL_*, EPROTO. */
function isTlsError(code: string): boolean {
  return (
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    code === 'EPROTO' ||
    /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HOSTNAME_MISMATCH/.test(code)
  );
}

/** An error from building or sending a request, as the delivery log's error class. */
export function classify(error: unknown): AttemptError {
  if (error instanceof BlockedTargetError) return 'destino-bloqueado';
  const code = typeof (error as NodeJS.ErrnoException | null)?.code === 'string' ? (error as NodeJS.ErrnoException).code! : '';
  if (INVALID_HEADER_CODES.has(code)) return 'cabecalho-invalido';
  if (code === 'ECONNREFUSED') return 'conexao-recusada';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA' || code === 'ESERVFAIL') return 'dns';
  if (code === 'ETIMEDOUT') return 'tempo-esgotado';
  if (isTlsError(code)) return 'tls';
  // A socket's own failure (reset, broken pipe, host unreachable…) carries a system error code;
  // anything else thrown here is a bug of ours.
  if (/^E[A-Z]+$/.test(code) || code.startsWith('UND_ERR_')) return 'erro-rede';
  return 'erro-interno';
}
