import { Alert, Anchor, Button, Center, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { OpsVerifyResult } from '@ampere/domain/contract/ops-staff';
import type { SignInState } from '../../app/layout.tsx';
import { ApiError, api, errorText } from '../../shared/api.ts';
import { meQuery } from '../../shared/me.ts';
import { paths } from '../../shared/paths.ts';
import { useTitle } from '../../shared/use-title.ts';
import { passkeyErrorText } from './passkey-errors.ts';

type Step =
  | { kind: 'phone' }
  | { kind: 'code'; phone: string }
  | { kind: 'passkey'; next: OpsVerifyResult['next']; name: string };

/**
 * Staff sign-in (decision 081): the phone number, the code texted to it, then a passkey — created
 * at the first sign-in, used after that.
 */
export function SignInPage() {
  useTitle('Sign in');
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const notice = (location.state as SignInState | null)?.message;
  const [step, setStep] = useState<Step>({ kind: 'phone' });
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<{ text: string; field?: 'phone' | 'code' } | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  // Each step's heading takes the focus, so a screen reader hears where the sign-in is.
  useEffect(() => {
    heading.current?.focus();
  }, [step.kind]);

  async function run(work: () => Promise<void>, field?: 'phone' | 'code') {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError({ text: errorText(err), field: err instanceof ApiError && err.field === field ? field : undefined });
    } finally {
      setBusy(false);
    }
  }

  const sendCode = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const sent = await api<{ phone: string }>('/auth/code', { method: 'POST', body: { phone } });
      setCode('');
      setStep({ kind: 'code', phone: sent.phone });
    }, 'phone');
  };

  const checkCode = (event: FormEvent) => {
    event.preventDefault();
    if (step.kind !== 'code') return;
    void run(async () => {
      const result = await api<OpsVerifyResult>('/auth/verify', {
        method: 'POST',
        body: { phone: step.phone, code },
      });
      setStep({ kind: 'passkey', next: result.next, name: result.name });
    }, 'code');
  };

  const finish = async () => {
    await queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
    await queryClient.fetchQuery(meQuery);
    void navigate(paths.today, { replace: true });
  };

  const passkey = () => {
    if (step.kind !== 'passkey') return;
    const creating = step.next === 'register-passkey';
    setBusy(true);
    setError(null);
    void (async () => {
      try {
        if (!browserSupportsWebAuthn()) {
          setError({ text: 'This browser cannot use passkeys. Use an up-to-date Chrome, Edge, Safari or Firefox.' });
          return;
        }
        if (creating) {
          const { options } = await api<{ options: Parameters<typeof startRegistration>[0]['optionsJSON'] }>(
            '/auth/passkey/register/options',
            { method: 'POST' },
          );
          const response = await startRegistration({ optionsJSON: options });
          await api('/auth/passkey/register', { method: 'POST', body: { response } });
        } else {
          const { options } = await api<{ options: Parameters<typeof startAuthentication>[0]['optionsJSON'] }>(
            '/auth/passkey/options',
            { method: 'POST' },
          );
          const response = await startAuthentication({ optionsJSON: options });
          await api('/auth/passkey', { method: 'POST', body: { response } });
        }
        await finish();
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) {
          setStep({ kind: 'phone' });
          setError({ text: err.message });
          return;
        }
        setError({ text: passkeyErrorText(err, creating) ?? errorText(err) });
      } finally {
        setBusy(false);
      }
    })();
  };

  const alert = error && !error.field && (
    <Alert color="red" role="alert" title="Not signed in yet">
      {error.text}
    </Alert>
  );

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="lg" w="100%" maw={420}>
        <Stack>
          <Text c="dimmed" size="sm">
            Ampere operator console
          </Text>
          {notice && step.kind === 'phone' && (
            <Alert color="blue" role="status">
              {notice}
            </Alert>
          )}
          {step.kind === 'phone' && (
            <form onSubmit={sendCode} noValidate>
              <Stack>
                <Title order={1} size="h2" ref={heading} tabIndex={-1}>
                  Sign in
                </Title>
                <Text size="sm">We will text a 6-digit code to the phone number your owner invited.</Text>
                <TextInput
                  label="Phone number"
                  type="tel"
                  autoComplete="tel"
                  inputMode="tel"
                  value={phone}
                  onChange={(e) => setPhone(e.currentTarget.value)}
                  error={error?.field === 'phone' ? error.text : undefined}
                  required
                />
                {alert}
                <Button type="submit" loading={busy}>
                  Text me a code
                </Button>
              </Stack>
            </form>
          )}
          {step.kind === 'code' && (
            <form onSubmit={checkCode} noValidate>
              <Stack>
                <Title order={1} size="h2" ref={heading} tabIndex={-1}>
                  Enter your code
                </Title>
                <Text size="sm">
                  If {step.phone} is on the console’s staff, a code is on its way. It lasts 10 minutes.
                </Text>
                <TextInput
                  label="6-digit code"
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  maxLength={6}
                  value={code}
                  onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
                  error={error?.field === 'code' ? error.text : undefined}
                  required
                />
                {alert}
                <Button type="submit" loading={busy}>
                  Check the code
                </Button>
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  onClick={() => {
                    setError(null);
                    setStep({ kind: 'phone' });
                  }}
                >
                  Use another number or get a new code
                </Anchor>
              </Stack>
            </form>
          )}
          {step.kind === 'passkey' && (
            <Stack>
              <Title order={1} size="h2" ref={heading} tabIndex={-1}>
                {step.next === 'register-passkey' ? 'Create your passkey' : 'Use your passkey'}
              </Title>
              <Text size="sm">
                {step.next === 'register-passkey'
                  ? `Welcome, ${step.name}. The console asks for a passkey as well as the code: create one now with this device’s fingerprint, face or PIN. You will use it every time you sign in.`
                  : `Welcome back, ${step.name}. Confirm it is you with the passkey you created for the console.`}
              </Text>
              {alert}
              <Button onClick={passkey} loading={busy}>
                {step.next === 'register-passkey' ? 'Create a passkey' : 'Use my passkey'}
              </Button>
            </Stack>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
