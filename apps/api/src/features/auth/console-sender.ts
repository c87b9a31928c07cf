import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { insertOutboxMessage } from './repository.ts';
import type { SmsSender } from './sms-sender.ts';

/**
 * The built-in sender used when no SMS provider is configured: the message goes to the server's
 * log and to the outbox table, which GET /api/dev/sms reads (developers, the e2e tests).
 */
export function createConsoleSender(db: Kysely<Database>, clock: Clock, opts: { print?: boolean } = {}): SmsSender {
  const print = opts.print ?? true;
  return {
    kind: 'console',
    async send(to, body) {
      if (print) console.log(`[sms] to ${to}: ${body}`);
      await insertOutboxMessage(db, { to_phone: to, body, sent_at: clock() });
    },
  };
}
