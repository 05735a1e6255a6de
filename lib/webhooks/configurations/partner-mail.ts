import type { OutgoingMail } from '@/lib/mail/send-mail';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';

/**
 * The e-mail to a partner's technical contact (a configuration's `emailContato`, issue 31 §3), pt-BR
 * first and English after, in one message: its deliveries were switched off automatically, or are
 * switched back on. It names the receiver by its origin only (a path or query string may carry the
 * partner's token, issue 43) and the configuration by id, which the partner's API and the hospital's
 * team both know; with the partner portal's link when there is one (portal-link.ts). Sent only to a
 * contact its owner confirmed (contactConfirmationMail, below).
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
  const receiver = receiverOrigin(config.url);
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

/** A receiver or broker named by scheme, host and port: never its path, vhost or query. */
export function receiverOrigin(target: string): string {
  const url = new URL(target);
  return url.origin !== 'null' ? url.origin : `${url.protocol}//${url.host}`;
}

/**
 * The one e-mail an address gets when it is set as a configuration's technical contact (issue 43):
 * the link that confirms it (the confirmation page, lib/webhooks/configurations/contact-confirmation.ts)
 * and why it came, pt-BR first and English after. Until it is confirmed the product sends it nothing
 * else, so a tenant cannot make it mail whomever it likes.
 */
export function contactConfirmationMail(to: string, config: { id: string; url: string }, link: string, expires: number): OutgoingMail {
  const receiver = receiverOrigin(config.url);
  const until = (locale: 'pt-BR' | 'en') => brasiliaDateTime(new Date(expires).toISOString(), locale);
  return {
    to,
    subject: 'Confirme o contato técnico de webhooks / Confirm the webhooks technical contact — Integration Console',
    text: [
      'Olá,',
      '',
      `Este endereço foi informado como contato técnico da configuração de webhook ${config.id} (receptor ${receiver}), para ser avisado quando as entregas de eventos forem desativadas automaticamente e quando forem religadas. Para receber esses avisos, confirme pelo link abaixo, válido até ${until('pt-BR')} (horário de Brasília). Se você não esperava esta mensagem, ignore-a: sem a confirmação, nenhum outro e-mail é enviado para este endereço.`,
      '',
      link,
      '',
      '---',
      '',
      'Hello,',
      '',
      `This address was given as the technical contact of webhook configuration ${config.id} (receiver ${receiver}), to be told when deliveries of events are switched off automatically and when they are switched back on. To receive those notices, confirm with the link below, valid until ${until('en')} (Brasília time). If you did not expect this message, ignore it: without the confirmation, no other e-mail is sent to this address.`,
      '',
      link,
      '',
    ].join('\n'),
  };
}
