import type { OutgoingMail } from '@/lib/mail/send-mail';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';
import type { Incident } from '@/lib/webhooks/delivery/store';

/**
 * The e-mail that tells staff of a delivery incident, pt-BR first and English after, in one
 * message. It names the receiver by its origin and path: a query string may carry a partner's
 * token, and the console (linked) shows the rest to those allowed to see it.
 */
export function alertMail(to: { email: string; name: string }, incident: Incident, receiver: string, consoleLink: string): OutgoingMail {
  const since = (locale: 'pt-BR' | 'en') => brasiliaDateTime(new Date(incident.since).toISOString(), locale);
  const [pt, en, subject] =
    incident.kind === 'desativada'
      ? [
          `As entregas para ${receiver} foram desativadas automaticamente em ${since('pt-BR')} (horário de Brasília): o receptor respondeu 410 ou falhou por tempo demais. Os eventos seguintes ficam registrados e podem ser recuperados quando o receptor voltar e as entregas forem religadas.`,
          `Deliveries to ${receiver} were switched off automatically on ${since('en')} (Brasília time): the receiver answered 410 or failed for too long. Later events are kept and can be recovered once the receiver is back and deliveries are switched on again.`,
          'Entregas desativadas / Deliveries switched off',
        ]
      : [
          `O receptor ${receiver} parece fora do ar desde ${since('pt-BR')} (horário de Brasília): as entregas estão em pausa e são tentadas de novo de tempos em tempos.`,
          `The receiver ${receiver} has looked down since ${since('en')} (Brasília time): its deliveries are paused and retried from time to time.`,
          'Receptor fora do ar / Receiver down',
        ];
  return {
    to: to.email,
    subject: `${subject} — Integration Console`,
    text: [`Olá, ${to.name}.`, '', pt, '', consoleLink, '', '---', '', `Hello, ${to.name}.`, '', en, '', consoleLink, ''].join('\n'),
  };
}
