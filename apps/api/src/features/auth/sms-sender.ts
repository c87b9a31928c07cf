import type { Kysely } from 'kysely';
import { LOGIN_CODE_TTL_MINUTES } from '@ampere/domain/account';
import { PRODUCT_NAME } from '@ampere/domain/constants';
import type { Clock } from '../../app.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { createConsoleSender } from './console-sender.ts';
import { createTwilioSender } from './twilio-sender.ts';

/**
 * Sends one text message. A failure is thrown as an AppError whose message a renter can act on
 * (a number that cannot receive texts is a 4xx; the provider being down is UNAVAILABLE), with the
 * provider's own error as its `cause` for the log.
 */
export interface SmsSender {
  kind: 'twilio' | 'console';
  send(to: string, body: string): Promise<void>;
}

export function loginCodeMessage(code: string): string {
  return `Your ${PRODUCT_NAME} code is ${code}. It expires in ${LOGIN_CODE_TTL_MINUTES} minutes. Never share it.`;
}

/** Twilio when it is configured; otherwise the console sender with its dev outbox. */
export function createSmsSender(config: Config, db: Kysely<Database>, clock: Clock): SmsSender {
  // LOG_LEVEL=silent (benchmarks) keeps the texts out of the console; the outbox still has them.
  return config.twilio ? createTwilioSender(config.twilio) : createConsoleSender(db, clock, { print: config.logLevel !== 'silent' });
}
