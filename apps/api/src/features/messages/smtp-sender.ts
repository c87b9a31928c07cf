import type { Transporter } from 'nodemailer';
import type { Config } from '../../config.ts';
import { type EmailSender, MessageRefused } from './email-sender.ts';

type SmtpConfig = NonNullable<Config['smtp']>;

/**
 * An SMTP reply code read as the job needs it: 5xx is the receiving server refusing this message
 * for good (no such mailbox, rejected), anything else (4xx, a refused connection, a timeout) is
 * worth another try.
 */
export function mapSmtpError(err: unknown): MessageRefused {
  const code =
    typeof err === 'object' && err !== null && 'responseCode' in err
      ? Number((err as { responseCode: unknown }).responseCode)
      : NaN;
  const permanent = code >= 500 && code < 600;
  const reason = err instanceof Error ? err.message : String(err);
  return new MessageRefused(
    permanent ? `The mail server refused the message: ${reason}` : `The mail server could not take it now: ${reason}`,
    permanent,
    { cause: err },
  );
}

/** Email through SMTP (SMTP_URL, EMAIL_FROM) with nodemailer, loaded on the first message. */
export function createSmtpSender(config: SmtpConfig): EmailSender {
  let transport: Promise<Transporter> | undefined;
  const getTransport = () =>
    (transport ??= import('nodemailer')
      .then((m) => m.default.createTransport(config.url, { from: config.from }))
      .catch((err: unknown) => {
        transport = undefined;
        throw err;
      }));
  return {
    kind: 'smtp',
    async send(mail) {
      try {
        const t = await getTransport();
        await t.sendMail({ from: config.from, to: mail.to, subject: mail.subject, text: mail.text });
      } catch (err) {
        throw mapSmtpError(err);
      }
    },
  };
}
