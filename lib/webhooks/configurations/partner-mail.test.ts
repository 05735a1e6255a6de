import { describe, expect, it } from 'vitest';
import { contactConfirmationMail, partnerMail, receiverOrigin } from './partner-mail';

/** The technical contact's e-mail (issue 31 §3): one message, pt-BR then English, no secret of the URL. */
describe('the e-mail to a partner’s technical contact', () => {
  const config = { id: '3f2a9c1e-5b7d-4e8f-a1b2-c3d4e5f6a7b8', url: 'https://hooks.parceiro.exemplo.com.br/v2/eventos?token=segredo' };
  const since = Date.UTC(2031, 2, 10, 15, 4);

  it('says the deliveries were switched off, why and since when, in Portuguese first and then English', () => {
    const mail = partnerMail('ti@parceiro.exemplo.com.br', { kind: 'desativada', since, reason: 'receptor-410' }, config, undefined);
    expect(mail.to).toBe('ti@parceiro.exemplo.com.br');
    expect(mail.subject).toBe('Entregas de webhook desativadas / Webhook deliveries switched off — Integration Console');
    const [pt, en] = mail.text.split('\n---\n');
    expect(pt).toContain('foram desativadas automaticamente em 10/03/2031, 12:04 (horário de Brasília): ele respondeu 410 (Gone)');
    expect(en).toContain('were switched off automatically on Mar 10, 2031, 12:04 PM (Brasília time): it answered 410 (Gone)');
    for (const part of [pt, en]) expect(part).toContain(`${config.id}`);
    // The receiver by its origin only: a path may carry the partner's token as a query string may (issue 43).
    expect(mail.text).toContain('https://hooks.parceiro.exemplo.com.br');
    expect(mail.text).not.toContain('/v2/eventos');
    expect(mail.text).not.toContain('segredo');
    expect(mail.text).not.toMatch(/portal/i);
    const failing = partnerMail(
      'ti@parceiro.exemplo.com.br',
      { kind: 'desativada', since, reason: 'falhas-consecutivas' },
      config,
      undefined,
    );
    expect(failing.text).toContain('todas as tentativas falharam por tempo demais');
    expect(failing.text).toContain('every attempt failed for too long');
  });

  it('says they are back on, and links the partner portal in both languages when there is one', () => {
    const skipped = { count: 3, oldest: since - 3_600_000 };
    const mail = partnerMail(
      'ti@parceiro.exemplo.com.br',
      { kind: 'religada', at: since, skipped },
      config,
      'https://console.exemplo/portal/x',
    );
    expect(mail.subject).toBe('Entregas de webhook religadas / Webhook deliveries switched back on — Integration Console');
    const [pt, en] = mail.text.split('\n---\n');
    expect(pt).toContain('foram religadas em 10/03/2031, 12:04 (horário de Brasília)');
    expect(pt).toContain('Portal do parceiro: https://console.exemplo/portal/x');
    expect(en).toContain('are on again since Mar 10, 2031, 12:04 PM (Brasília time)');
    expect(en).toContain('Partner portal: https://console.exemplo/portal/x');
    // Not "recovered": the receiver has not taken a delivery yet; what was skipped waits for a recovery.
    expect(pt).toContain('O receptor ainda não foi confirmado');
    expect(en).toContain('The receiver is not confirmed yet');
    expect(pt).toContain('3 eventos registrados enquanto estavam desativadas aguardam uma recuperação');
    expect(en).toContain(
      '3 events kept while they were off wait for a recovery (POST …/recuperacao with "desde": "2031-03-10T14:04:00.000Z"',
    );
    const none = partnerMail(
      'ti@parceiro.exemplo.com.br',
      { kind: 'religada', at: since, skipped: { count: 0, oldest: null } },
      config,
      undefined,
    );
    expect(none.text).toContain('No event is waiting for a recovery.');
  });

  it('asks the contact to confirm, once, naming the configuration and the receiver’s origin, pt-BR then English', () => {
    const link = 'https://console.exemplo/confirmar-contato?token=abc';
    const mail = contactConfirmationMail('ti@parceiro.exemplo.com.br', config, link, since);
    expect(mail.subject).toBe('Confirme o contato técnico de webhooks / Confirm the webhooks technical contact — Integration Console');
    const [pt, en] = mail.text.split('\n---\n');
    expect(pt).toContain('confirme pelo link abaixo, válido até 10/03/2031, 12:04 (horário de Brasília)');
    expect(en).toContain('confirm with the link below, valid until Mar 10, 2031, 12:04 PM (Brasília time)');
    for (const part of [pt, en]) {
      expect(part).toContain(link);
      expect(part).toContain(config.id);
      expect(part).toContain('(receptor https://hooks.parceiro.exemplo.com.br)'.replace('receptor', part === pt ? 'receptor' : 'receiver'));
    }
    expect(mail.text).not.toContain('/v2/eventos');
    expect(mail.text).not.toContain('segredo');
  });

  it('names a broker by scheme, host and port, never its virtual host or destination', () => {
    expect(receiverOrigin('amqps://broker.parceiro.exemplo.com.br:5671/vhost?exchange=e&routingKey=k')).toBe(
      'amqps://broker.parceiro.exemplo.com.br:5671',
    );
    expect(receiverOrigin('tls://nats.parceiro.exemplo.com.br?subject=s')).toBe('tls://nats.parceiro.exemplo.com.br');
  });
});
