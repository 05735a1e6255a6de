import 'server-only';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { maskSecret } from '@/lib/audit/masking';
import type { AttemptError } from '../delivery-contract';
import { checkHeaderName, checkHeaderValue, looksSecret } from '../header-policy';
import { BlockedTargetError, checkedLookup, isBlockedAddress, type Resolve } from './checked-lookup';
import { OWN_HEADERS, USER_AGENT } from './message';
import { retryAfterSeconds } from './retry-policy';
import { signatureHeader } from './signature';

/**
 * One HTTP attempt: POST the signed message, follow no redirect, read at most RESPONSE_READ_LIMIT
 * bytes of the answer (keeping the first 1 KiB) and give up after the timeout, so a receiver that
 * streams forever or answers slowly costs one in-flight slot until then and nothing more.
 */
const RESPONSE_READ_LIMIT = 64 * 1024;
const KEPT_BODY = 1024;

export type SendSettings = { timeoutMs: number; allowPrivateTargets: boolean; resolve: Resolve };

export type SendInput = {
  deliveryId: string;
  url: string;
  body: string;
  secrets: readonly string[];
  customHeaders: readonly { chave: string; valor: string }[];
  now: number;
};

export type SendResult = {
  startedAt: number;
  durationMs: number;
  status: number | null;
  body: string | null;
  error: AttemptError | null;
  retryAfterSeconds?: number;
  /** What was sent, for the delivery log: the signature and credential-like header values (looksSecret) masked. */
  requestHeaders: Record<string, string>;
};

const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

export function send(input: SendInput, settings: SendSettings): Promise<SendResult> {
  const startedAt = Date.now();
  const timestamp = Math.floor(startedAt / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'webhook-id': input.deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(input.deliveryId, timestamp, input.body, input.secrets),
    'user-agent': USER_AGENT,
  };
  const logged: Record<string, string> = { ...headers, 'webhook-signature': maskSecret(headers['webhook-signature']!) };
  for (const { chave, valor } of input.customHeaders) {
    if ((OWN_HEADERS as readonly string[]).includes(chave.toLowerCase())) continue;
    headers[chave] = valor;
    // The rule the editor masks by: a value is hidden in the log where it is hidden in the form.
    logged[chave] = looksSecret(chave) ? maskSecret(valor) : valor;
  }
  const finish = (partial: Omit<SendResult, 'startedAt' | 'durationMs' | 'requestHeaders'>): SendResult => ({
    ...partial,
    startedAt,
    durationMs: Math.round(Date.now() - startedAt),
    requestHeaders: logged,
  });

  // A value stored before the save-time check refused it (or a name that policy refuses): Node would
  // throw while building the request. It is this attempt's failure, named, not an exception.
  if (input.customHeaders.some(({ chave, valor }) => checkHeaderName(chave) !== undefined || checkHeaderValue(valor) !== undefined)) {
    return Promise.resolve(finish({ status: null, body: null, error: 'cabecalho-invalido' }));
  }
  const url = new URL(input.url);
  const literal = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  // An IP literal is not looked up, so the lookup's check would not run: check it here.
  if (isIP(literal) && !settings.allowPrivateTargets && isBlockedAddress(literal)) {
    return Promise.resolve(finish({ status: null, body: null, error: 'destino-bloqueado' }));
  }
  const secure = url.protocol === 'https:';
  return new Promise((resolve) => {
    let settled = false;
    // Set once the request exists; `done` may run before that (a request Node refused to build).
    let timer: NodeJS.Timeout | undefined = undefined;
    const done = (result: Omit<SendResult, 'startedAt' | 'durationMs' | 'requestHeaders'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(finish(result));
    };
    let request: http.ClientRequest;
    try {
      request = (secure ? https : http).request(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(input.body)) },
          agent: secure ? agents.https : agents.http,
          lookup: checkedLookup(settings.resolve, settings.allowPrivateTargets),
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
            const text = Buffer.concat(chunks).subarray(0, KEPT_BODY).toString('utf8');
            const error: AttemptError | null =
              status >= 200 && status < 300 ? null : status >= 300 && status < 400 ? 'redirecionamento' : 'status-http';
            const retryAfter =
              status === 429 || status === 503 ? retryAfterSeconds(response.headers['retry-after'], Date.now()) : undefined;
            done({ status, body: text, error, retryAfterSeconds: retryAfter });
          };
          response.on('end', answer);
          response.on('close', answer);
          response.on('error', answer);
        },
      );
    } catch (error) {
      // Thrown while building the request (a header Node refuses, say): no request went out.
      return done({ status: null, body: null, error: classify(error) });
    }
    timer = setTimeout(() => {
      done({ status: null, body: null, error: 'tempo-esgotado' });
      request.destroy();
    }, settings.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => done({ status: null, body: null, error: classify(error) }));
    request.end(input.body);
  });
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
