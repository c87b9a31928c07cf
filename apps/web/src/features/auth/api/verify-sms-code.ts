import { useMutation } from '@tanstack/react-query';
import type { SessionResult } from '@ampere/domain/contract/account';
import { api } from '../../../shared/api/client.ts';

/** POST /api/v1/auth/sms/verify: trades the phone and its code for a session. */
export const verifySmsCode = (input: { phone: string; code: string }) =>
  api<SessionResult>('/api/v1/auth/sms/verify', { method: 'POST', body: input });

export const useVerifySmsCode = () => useMutation({ mutationFn: verifySmsCode });
