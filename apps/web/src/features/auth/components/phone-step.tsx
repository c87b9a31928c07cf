import { Button, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { track } from '../../../shared/analytics.ts';
import { type SentCode, useSendSmsCode } from '../api/send-sms-code.ts';
import { signInErrorMessage } from '../api-error-message.ts';

interface PhoneStepProps {
  phone: string;
  onPhoneChange(phone: string): void;
  onSent(sent: SentCode): void;
}

/** Step 1: the renter's mobile number; the server checks it and texts a code. */
export function PhoneStep({ phone, onPhoneChange, onSent }: PhoneStepProps) {
  const send = useSendSmsCode();
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  // The sign-in page (and "change number" from the code step) is this one field: focus starts there.
  useEffect(() => input.current?.focus(), []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (send.isPending) return;
    if (!phone.trim()) {
      setError('Enter your mobile phone number.');
      return;
    }
    send.mutate(phone, {
      onSuccess: (sent) => {
        track('auth_started', { method: 'sms' });
        onSent(sent);
      },
      onError: (err) => setError(signInErrorMessage(err)),
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text>We'll text you a 6-digit code to sign in. New to Ampere? The same code creates your account.</Text>
        <TextInput
          ref={input}
          label="Mobile phone number"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          placeholder="(615) 555-0123"
          size="md"
          value={phone}
          onChange={(e) => {
            onPhoneChange(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          errorProps={{ role: 'alert' }}
        />
        <Button type="submit" size="md" fullWidth loading={send.isPending}>
          Send code
        </Button>
      </Stack>
    </form>
  );
}
