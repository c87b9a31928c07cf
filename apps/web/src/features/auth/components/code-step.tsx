import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { usePhoneForDisplay } from '../../../shared/ui/phone-number.tsx';
import { track } from '../../../shared/analytics.ts';
import { setSession } from '../../../shared/auth/session-store.ts';
import { type SentCode, useSendSmsCode } from '../api/send-sms-code.ts';
import { useVerifySmsCode } from '../api/verify-sms-code.ts';
import { signInErrorMessage } from '../api-error-message.ts';
import { useCountdown } from './use-countdown.ts';
import classes from './login.module.css';

interface CodeStepProps {
  sent: SentCode;
  /** When the code was sent (epoch ms): the resend pause counts from here. */
  sentAt: number;
  onResent(sent: SentCode): void;
  onChangeNumber(): void;
}

const clock = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

/** Step 2: the 6-digit code from the text; it submits itself once six digits are in. */
export function CodeStep({ sent, sentAt, onResent, onChangeNumber }: CodeStepProps) {
  const verify = useVerifySmsCode();
  const resend = useSendSmsCode();
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // This step replaces the phone step: focus moves with it, to the only field the renter needs.
  useEffect(() => input.current?.focus(), []);
  const wait = useCountdown(sentAt + sent.resend_after_seconds * 1000);
  const phone = usePhoneForDisplay(sent.phone);

  const check = (value: string) => {
    if (verify.isPending) return;
    if (!/^\d{6}$/.test(value)) {
      setError('Enter the 6-digit code from the text message.');
      return;
    }
    setError(null);
    verify.mutate(
      { phone: sent.phone, code: value },
      {
        onSuccess: (session) => {
          track('auth_completed', { method: 'sms' });
          // The login page follows the new session to the redirect target.
          setSession(session);
        },
        onError: (err) => {
          setError(signInErrorMessage(err));
          setCode('');
          input.current?.focus();
        },
      },
    );
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    check(code);
  };

  const again = () => {
    setNotice(null);
    resend.mutate(sent.phone, {
      onSuccess: (next) => {
        track('auth_started', { method: 'sms', resend: true });
        setError(null);
        setCode('');
        setNotice(`We sent a new code to ${phone}.`);
        onResent(next);
        input.current?.focus();
      },
      onError: (err) => setError(signInErrorMessage(err)),
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text>
          Enter the 6-digit code we sent to{' '}
          <Text span fw={700} style={{ whiteSpace: 'nowrap' }}>
            {phone}
          </Text>
        </Text>
        <TextInput
          ref={input}
          label="6-digit code"
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9]*"
          maxLength={6}
          size="md"
          classNames={{ input: classes.code }}
          value={code}
          onChange={(e) => {
            const digits = e.currentTarget.value.replace(/\D/g, '').slice(0, 6);
            setCode(digits);
            setError(null);
            if (digits.length === 6) check(digits);
          }}
          error={error}
          errorProps={{ role: 'alert' }}
          readOnly={verify.isPending}
        />
        <Button type="submit" size="md" fullWidth loading={verify.isPending}>
          Verify
        </Button>
        <Text size="sm" role="status">
          {notice}
        </Text>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Button variant="subtle" color="dark" px={4} onClick={onChangeNumber}>
            Use a different number
          </Button>
          <Button
            variant="subtle"
            color="dark"
            px={4}
            onClick={again}
            disabled={wait > 0}
            loading={resend.isPending}
            aria-describedby="resend-hint"
          >
            Resend code
          </Button>
        </Group>
        <Text size="sm" c="dimmed" id="resend-hint">
          {wait > 0
            ? `You can ask for a new code in ${clock(wait)}.`
            : `Didn't get it? Ask for a new code. Each code works for ${sent.expires_in_minutes} minutes.`}
        </Text>
      </Stack>
    </form>
  );
}
