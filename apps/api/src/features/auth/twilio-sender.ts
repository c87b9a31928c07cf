import type { Twilio } from 'twilio';
import type { Config } from '../../config.ts';
import { AppError, type ErrorCode } from '../../http/errors.ts';
import type { SmsSender } from './sms-sender.ts';

type TwilioConfig = NonNullable<Config['twilio']>;

function withCause(code: ErrorCode, message: string, cause: unknown, field?: string): AppError {
  const error = new AppError(code, message, field);
  error.cause = cause;
  return error;
}

/**
 * Turns a Twilio failure into what the renter is told. Errors about the number itself
 * (https://www.twilio.com/docs/api/errors) are the renter's to fix; everything else — bad
 * credentials, Twilio rate limits, outages, timeouts — is ours, reported as a temporary failure.
 */
export function mapTwilioError(err: unknown): AppError {
  const code = typeof err === 'object' && err !== null && 'code' in err ? Number((err as { code: unknown }).code) : NaN;
  switch (code) {
    case 21211: // invalid 'To' number
      return withCause('INVALID_INPUT', 'That phone number is not valid. Check it and try again.', err, 'phone');
    case 21610: // the recipient replied STOP
      return withCause(
        'UNPROCESSABLE',
        'That number has opted out of our text messages. Text START to our number to opt back in, then try again.',
        err,
        'phone',
      );
    case 21612: // cannot route to this number
    case 21614: // not a mobile number
    case 21408: // region not enabled
      return withCause(
        'UNPROCESSABLE',
        'We can’t send a text message to that number. Use a mobile number that can receive texts.',
        err,
        'phone',
      );
    default:
      return withCause(
        'UNAVAILABLE',
        'We couldn’t send the text message just now. Please try again in a few minutes.',
        err,
      );
  }
}

/**
 * Twilio's official SDK, imported on first use so that a server without Twilio never loads it.
 * A Messaging Service is preferred when configured (it picks the sending number), else the From number.
 */
export function createTwilioSender(config: TwilioConfig): SmsSender {
  let client: Promise<Twilio> | undefined;
  const getClient = () =>
    (client ??= import('twilio')
      .then((m) => m.default(config.accountSid, config.authToken, { autoRetry: true, maxRetries: 2, timeout: 10_000 }))
      .catch((err: unknown) => {
        client = undefined; // try loading again on the next message
        throw err;
      }));
  return {
    kind: 'twilio',
    async send(to, body) {
      try {
        const twilio = await getClient();
        await twilio.messages.create(
          config.messagingServiceSid
            ? { to, body, messagingServiceSid: config.messagingServiceSid }
            : { to, body, from: config.from! },
        );
      } catch (err) {
        throw mapTwilioError(err);
      }
    },
  };
}
