import type { OutgoingMail } from '@/lib/mail/send-mail';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';

/**
 * The e-mail that carries a one-time password link. Staff are Brazilian: pt-BR first, English
 * after, in one message (the recipient's language is not known when an admin creates the account).
 */
export type LinkPurpose = 'created' | 'reset';

export function passwordLinkMail(to: { email: string; name: string }, link: string, expires: Date, purpose: LinkPurpose): OutgoingMail {
  const untilPt = brasiliaDateTime(expires.toISOString(), 'pt-BR');
  const untilEn = brasiliaDateTime(expires.toISOString(), 'en');
  const pt =
    purpose === 'created'
      ? `Olá, ${to.name}.\n\nFoi criada uma conta para você no Integration Console. Defina sua senha por este link:`
      : `Olá, ${to.name}.\n\nFoi pedida uma nova senha para a sua conta no Integration Console. Defina-a por este link:`;
  const en =
    purpose === 'created'
      ? `Hello, ${to.name}.\n\nAn Integration Console account was created for you. Set your password with this link:`
      : `Hello, ${to.name}.\n\nA new password was requested for your Integration Console account. Set it with this link:`;
  return {
    to: to.email,
    subject:
      purpose === 'created'
        ? 'Defina sua senha / Set your password — Integration Console'
        : 'Nova senha / New password — Integration Console',
    text: [
      pt,
      '',
      link,
      '',
      `O link vale uma única vez, até ${untilPt} (horário de Brasília). Se você não esperava esta mensagem, ignore-a.`,
      '',
      '---',
      '',
      en,
      '',
      link,
      '',
      `The link works once, until ${untilEn} (Brasília time). If you did not expect this message, ignore it.`,
      '',
    ].join('\n'),
  };
}
