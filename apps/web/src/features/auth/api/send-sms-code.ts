import { useMutation } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';

/** The answer of POST /api/v1/auth/sms/send (contract: SmsSendResult). */
export interface SentCode {
  /** The normalised number the code went to (E.164). */
  phone: string;
  expires_in_minutes: number;
  resend_after_seconds: number;
}

/** POST /api/v1/auth/sms/send: texts a 6-digit code; answers the normalised number and the resend pause. */
export const sendSmsCode = (phone: string) =>
  api<SentCode>('/api/v1/auth/sms/send', { method: 'POST', body: { phone } });

export const useSendSmsCode = () => useMutation({ mutationFn: sendSmsCode });
