import type { OutgoingMail } from '@/lib/mail/send-mail';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';

/**
 * The e-mail to a partner's technical contact (a configuration's `emailContato`, issue 31 §3), pt-BR
 * first and English after, in one message: its deliveries were switched off automatically, or are
 * switched back on. It names the receiver by origin and path (a query string may carry the partner's
 * token) and the configuration by id, which the partner's API and the hospital's team both know;
 * with the partner portal's link when there is one (portal-link.ts).
 */
export type PartnerNotice =
  | { kind: 'desativada'; since: number; reason: 'receptor-410' | 'falhas-consecutivas' }
  /** Switched back on: the receiver is not confirmed until a delivery succeeds; `skipped` events wait for a recovery. */
  | { kind: 'religada'; at: number; skipped: { count: number; oldest: number | null } };

export function partnerMail(
  to: string,
  notice: PartnerNotice,
  config: { id: string; url: string },
  portalLink: string | undefined,
): OutgoingMail {
  const url = new URL(config.url);
  const receiver = `${url.origin}${url.pathname}`;
  const when = (locale: 'pt-BR' | 'en') =>
    brasiliaDateTime(new Date(notice.kind === 'desativada' ? notice.since : notice.at).toISOString(), locale);
  const [subject, pt, en] =
    notice.kind === 'desativada'
      ? [
          'Entregas de webhook desativadas / Webhook deliveries switched off',
          `As entregas de eventos para o seu receptor ${receiver} foram desativadas automaticamente em ${when('pt-BR')} (horário de Brasília): ${
            notice.reason === 'receptor-410' ? 'ele respondeu 410 (Gone)' : 'todas as tentativas falharam por tempo demais'
          }. Os eventos seguintes ficam registrados e podem ser reenviados depois que o receptor voltar e as entregas forem religadas (pela API, com "ativo": true, ou pela equipe de integração do hospital).`,
          `Deliveries of events to your receiver ${receiver} were switched off automatically on ${when('en')} (Brasília time): ${
            notice.reason === 'receptor-410' ? 'it answered 410 (Gone)' : 'every attempt failed for too long'
          }. Later events are kept and can be sent again once the receiver is back and deliveries are switched on again (through the API, with "ativo": true, or by the hospital's integration team).`,
        ]
      : [
          'Entregas de webhook religadas / Webhook deliveries switched back on',
          `As entregas de eventos para o seu receptor ${receiver} foram religadas em ${when('pt-BR')} (horário de Brasília). O receptor ainda não foi confirmado: nenhuma entrega chegou a ele desde então; a primeira que ele aceitar confirma a volta. ${
            notice.kind === 'religada' && notice.skipped.count > 0 && notice.skipped.oldest !== null
              ? `${notice.skipped.count} eventos registrados enquanto estavam desativadas aguardam uma recuperação (POST …/recuperacao com "desde": "${new Date(notice.skipped.oldest).toISOString()}", ou "Recuperar" no console).`
              : 'Nenhum evento ficou aguardando recuperação.'
          }`,
          `Deliveries of events to your receiver ${receiver} are on again since ${when('en')} (Brasília time). The receiver is not confirmed yet: no delivery has reached it since; the first one it accepts confirms it is back. ${
            notice.kind === 'religada' && notice.skipped.count > 0 && notice.skipped.oldest !== null
              ? `${notice.skipped.count} events kept while they were off wait for a recovery (POST …/recuperacao with "desde": "${new Date(notice.skipped.oldest).toISOString()}", or "Recover" in the console).`
              : 'No event is waiting for a recovery.'
          }`,
        ];
  const portal = (label: string) => (portalLink ? [`${label}: ${portalLink}`] : []);
  return {
    to,
    subject: `${subject} — Integration Console`,
    text: [
      'Olá,',
      '',
      pt,
      '',
      `Configuração: ${config.id}`,
      ...portal('Portal do parceiro'),
      '',
      '---',
      '',
      'Hello,',
      '',
      en,
      '',
      `Configuration: ${config.id}`,
      ...portal('Partner portal'),
      '',
    ].join('\n'),
  };
}
