import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { createConsoleSender } from './console-sender.ts';
import type { SmsSender } from './sms-sender.ts';
import { createTwilioSender } from './twilio-sender.ts';

// Apart from sms-sender.ts, which both senders import for its types.
/** Twilio when it is configured; otherwise the console sender with its dev outbox. */
export function createSmsSender(config: Config, db: Kysely<Database>, clock: Clock): SmsSender {
  // LOG_LEVEL=silent (benchmarks) keeps the texts out of the console; the outbox still has them.
  return config.twilio
    ? createTwilioSender(config.twilio)
    : createConsoleSender(db, clock, { print: config.logLevel !== 'silent' });
}
