import 'server-only';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { maskSecret } from '@/lib/audit/masking';
import type { AttemptError } from '../delivery-contract';
import { looksSecret } from '../header-policy';
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

  const url = new URL(input.url);
  const literal = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  // An IP literal is not looked up, so the lookup's check would not run: check it here.
  if (isIP(literal) && !settings.allowPrivateTargets && isBlockedAddress(literal)) {
    return Promise.resolve(finish({ status: null, body: null, error: 'destino-bloqueado' }));
  }
  const secure = url.protocol === 'https:';
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: Omit<SendResult, 'startedAt' | 'durationMs' | 'requestHeaders'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(finish(result));
    };
    const request = (secure ? https : http).request(
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
          const retryAfter = status === 429 || status === 503 ? retryAfterSeconds(response.headers['retry-after'], Date.now()) : undefined;
          done({ status, body: text, error, retryAfterSeconds: retryAfter });
        };
        response.on('end', answer);
        response.on('close', answer);
        response.on('error', answer);
      },
    );
    const timer = setTimeout(() => {
      done({ status: null, body: null, error: 'tempo-esgotado' });
      request.destroy();
    }, settings.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => done({ status: null, body: null, error: classify(error) }));
    request.end(input.body);
  });
}

function classify(error: NodeJS.ErrnoException): AttemptError {
  if (error instanceof BlockedTargetError) return 'destino-bloqueado';
  if (error.code === 'ECONNREFUSED') return 'conexao-recusada';
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN' || error.code === 'ENODATA' || error.code === 'ESERVFAIL') return 'dns';
  if (error.code === 'ETIMEDOUT') return 'tempo-esgotado';
  return 'erro-rede';
}
