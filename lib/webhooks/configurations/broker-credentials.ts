import 'server-only';
import { maskIdentifier } from '@/lib/audit/masking';
import { kindOf } from './destinations/kinds';
import { decryptSecret, encryptSecret, type SealedFor } from './secrets';

/**
 * A broker target's user and password (issue 29): a secret of the configuration, stored encrypted
 * as its signing secret is (secrets.ts), opened only by the attempt that connects with them. The
 * API, the log and the audit trail see the user masked and the password never.
 */
export type BrokerCredentials = { usuario: string; senha: string };

const credentialsOf = (configId: string): SealedFor => ({ purpose: 'broker-credentials', configId });

export function encryptCredentials(configId: string, credentials: BrokerCredentials): string {
  return encryptSecret(JSON.stringify({ usuario: credentials.usuario, senha: credentials.senha }), credentialsOf(configId));
}

/** The login sealed for this configuration (secrets.ts); throws for a value sealed for anything else. */
export function decryptCredentials(configId: string, stored: string | null | undefined): BrokerCredentials | null {
  if (!stored) return null;
  const value = JSON.parse(decryptSecret(stored, credentialsOf(configId))) as Partial<BrokerCredentials>;
  return { usuario: String(value.usuario ?? ''), senha: String(value.senha ?? '') };
}

/** What the API and the audit trail show: the user's last 2 characters, the password never. */
export function maskedCredentials(configId: string, stored: string | null | undefined): { usuario: string } | null {
  const credentials = decryptCredentials(configId, stored);
  return credentials ? { usuario: maskIdentifier(credentials.usuario, 2) ?? '' } : null;
}

/**
 * Whether a login stored for `before` may still be used at `after` (issue 43): only when the kind,
 * TLS, host, port and virtual host are the same. Otherwise whoever re-points a configuration at a
 * broker they run would receive the password at the next attempt; a move from TLS to plain would
 * send it in clear. The exchange, routing key or subject may change.
 */
export function sameLoginTarget(before: string, after: string): boolean {
  const kindBefore = kindOf(before)?.descriptor;
  const kindAfter = kindOf(after)?.descriptor;
  const a = kindBefore?.parse(before);
  const b = kindAfter?.parse(after);
  return (
    a !== undefined &&
    b !== undefined &&
    a.kind === b.kind &&
    a.tls === b.tls &&
    a.hostname === b.hostname &&
    a.port === b.port &&
    // What else tells two connections apart (a RabbitMQ virtual host); a kind without one has none.
    kindBefore?.connectionScope?.(a) === kindAfter?.connectionScope?.(b)
  );
}
