import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { type EmailSender, MessageRefused } from './email-sender.ts';
import { insertMail } from './repository.ts';

/**
 * The built-in email sender used when SMTP is not configured (decision 070): each email goes to the
 * `email_outbox` table, which GET /api/dev/mail and the /dev/mailbox page read. It refuses as a mail
 * server would, so the retries can be seen offline:
 * - an address in a `.invalid` domain is refused for good (SMTP 550, no such mailbox);
 * - an address at `greylist.example` is refused once per message (SMTP 451, try again later), then taken.
 */
export function createMailboxSender(db: Kysely<Database>, clock: Clock, opts: { print?: boolean } = {}): EmailSender {
  const print = opts.print ?? true;
  const greylisted = new Set<string>();
  return {
    kind: 'mailbox',
    async send(mail) {
      const domain = mail.to.split('@').at(-1)?.toLowerCase() ?? '';
      if (domain.endsWith('.invalid')) throw new MessageRefused(`550 No such mailbox: ${mail.to}`, true);
      const seen = `${mail.to}\n${mail.subject}`;
      if (domain === 'greylist.example' && !greylisted.has(seen)) {
        greylisted.add(seen);
        throw new MessageRefused(`451 Greylisted, try again later: ${mail.to}`, false);
      }
      if (print) console.log(`[email] to ${mail.to}: ${mail.subject}`);
      await insertMail(db, { to_address: mail.to, subject: mail.subject, body: mail.text, sent_at: clock() });
    },
  };
}
