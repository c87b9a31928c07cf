import { Title } from '@mantine/core';
import { useState } from 'react';
import { Navigate, useSearchParams } from '../../../shared/router/react.tsx';
import { useSession } from '../../../shared/auth/use-session.ts';
import type { SentCode } from '../api/send-sms-code.ts';
import { CodeStep } from '../components/code-step.tsx';
import { ConsentNotice } from '../components/consent-notice.tsx';
import { PhoneStep } from '../components/phone-step.tsx';
import classes from '../components/login.module.css';
import { loginTarget } from '../public/login-target.ts';

/** Spec 2: phone-code sign-in for anonymous visitors; a signed-in visitor goes on to the redirect target. */
export function LoginPage() {
  const session = useSession();
  const [params] = useSearchParams();
  const [phone, setPhone] = useState('');
  const [sent, setSent] = useState<{ code: SentCode; at: number } | null>(null);

  if (session) return <Navigate to={loginTarget(params)} replace />;
  return (
    <div className={classes.card}>
      <Title order={1} mb="md">
        Sign in
      </Title>
      {sent ? (
        <CodeStep
          sent={sent.code}
          sentAt={sent.at}
          onResent={(code) => setSent({ code, at: Date.now() })}
          onChangeNumber={() => setSent(null)}
        />
      ) : (
        <PhoneStep phone={phone} onPhoneChange={setPhone} onSent={(code) => setSent({ code, at: Date.now() })} />
      )}
      <ConsentNotice />
    </div>
  );
}
