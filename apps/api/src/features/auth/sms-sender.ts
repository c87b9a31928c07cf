import { LOGIN_CODE_TTL_MINUTES } from '@ampere/domain/account';
import { PRODUCT_NAME } from '@ampere/domain/constants';

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
