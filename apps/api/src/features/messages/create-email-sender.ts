import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import type { EmailSender } from './email-sender.ts';
import { createMailboxSender } from './mailbox-sender.ts';
import { createSmtpSender } from './smtp-sender.ts';

/** SMTP when it is configured; otherwise the built-in mailbox. */
export function createEmailSender(config: Config, db: Kysely<Database>, clock: Clock): EmailSender {
  return config.smtp
    ? createSmtpSender(config.smtp)
    : createMailboxSender(db, clock, { print: config.logLevel !== 'silent' });
}
