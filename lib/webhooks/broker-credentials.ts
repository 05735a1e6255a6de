import 'server-only';
import { maskIdentifier } from '@/lib/audit/masking';
import { decryptSecret, encryptSecret } from './secrets';

/**
 * A broker target's user and password (issue 29): a secret of the configuration, stored encrypted
 * as its signing secret is (secrets.ts), opened only by the attempt that connects with them. The
 * API, the log and the audit trail see the user masked and the password never.
 */
export type BrokerCredentials = { usuario: string; senha: string };

export function encryptCredentials(credentials: BrokerCredentials): string {
  return encryptSecret(JSON.stringify({ usuario: credentials.usuario, senha: credentials.senha }));
}

export function decryptCredentials(stored: string | null | undefined): BrokerCredentials | null {
  if (!stored) return null;
  const value = JSON.parse(decryptSecret(stored)) as Partial<BrokerCredentials>;
  return { usuario: String(value.usuario ?? ''), senha: String(value.senha ?? '') };
}

/** What the API and the audit trail show: the user's last 2 characters, the password never. */
export function maskedCredentials(stored: string | null | undefined): { usuario: string } | null {
  const credentials = decryptCredentials(stored);
  return credentials ? { usuario: maskIdentifier(credentials.usuario, 2) ?? '' } : null;
}
