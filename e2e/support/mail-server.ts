import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) for the specs of e-mailed password
 * links: the app under test connects to it over TCP with nodemailer, as to a hospital's relay.
 * Every accepted message is parsed (mailparser) and kept; `waitFor` finds one by recipient.
 */
export type ReceivedMail = { from: string; to: string[]; subject: string; text: string; auth: string | undefined };

export class MailServer {
  readonly received: ReceivedMail[] = [];
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    onData: (stream, session, callback) => {
      simpleParser(stream)
        .then((mail) => {
          this.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            auth: session.user as string | undefined,
          });
          callback();
        })
        .catch(callback);
    },
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    return this;
  }

  /** smtp://user:password@127.0.0.1:port: the credentials are accepted and recorded. */
  url(): string {
    const { port } = this.server.server.address() as AddressInfo;
    return `smtp://relay-user:relay-pass@127.0.0.1:${port}`;
  }

  async waitFor(to: string, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = this.received.find((message) => message.to.includes(to));
      if (mail) return mail;
      if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
