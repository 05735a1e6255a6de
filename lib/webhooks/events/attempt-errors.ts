/**
 * Why an attempt failed, when it got no 2xx (stored as `last_error` / an attempt's `erro`). The last
 * three say the request could not be made or completed at all: a stored header value HTTP cannot
 * carry, a TLS handshake or certificate failure, and anything else thrown while building or sending
 * it (a bug). Each is still an attempt: retried, counted by the circuit and shown in the log.
 */
export const ATTEMPT_ERRORS = [
  'status-http',
  'tempo-esgotado',
  'conexao-recusada',
  'dns',
  'destino-bloqueado',
  'redirecionamento',
  'erro-rede',
  'cabecalho-invalido',
  'tls',
  'erro-interno',
  // Broker destinations (issue 29): credentials refused; no exchange, queue or stream for the
  // message; the broker's negative acknowledgement.
  'autenticacao-recusada',
  'sem-rota',
  'confirmacao-negativa',
  // This process's cap of open broker connections per tenant reached, every one in use (issue 43).
  'limite-conexoes',
  // Payload control (issue 46): the configuration's transformation threw, hit a limit or returned
  // something invalid; the attempt's `corpo` holds the reason.
  'transformacao',
] as const;
export type AttemptError = (typeof ATTEMPT_ERRORS)[number];
