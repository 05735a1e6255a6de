import 'server-only';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * Staff password rules (issue 11 §1): at least 12 characters, not containing the e-mail's local
 * part, and not among the ~49,000 most common passwords (zxcvbn-ts's maintained list). Answers the
 * rule broken, as a validation code the message catalogue words in pt-BR and English.
 */
const MIN_PASSWORD_LENGTH = 12;

let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  common ??= new Set(dictionary['passwords-common']);
  return common;
}

export type PasswordViolation = 'passwordTooShort' | 'passwordContainsEmail' | 'passwordCommon';

export function checkPassword(password: string, email: string): PasswordViolation | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH) return 'passwordTooShort';
  const local = email.split('@')[0]?.toLowerCase() ?? '';
  const lower = password.toLowerCase();
  if (local.length >= 3 && lower.includes(local)) return 'passwordContainsEmail';
  if (commonPasswords().has(lower)) return 'passwordCommon';
  return undefined;
}
