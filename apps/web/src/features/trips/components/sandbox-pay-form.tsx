import { useCallback, useEffect, useState } from 'react';
import { type CardEntry, cardPayload } from '../../payments/public/card-entry.ts';
import { SandboxCardFields } from '../../payments/public/sandbox-card-fields.tsx';
import { confirmSandboxPayment } from '../api/confirm-sandbox-payment.ts';
import type { CardPayProps } from './card-pay-props.ts';

/** The offline gateway's card form on the payment page: the same fields, confirming payment intents. */
export function SandboxPayForm({ confirmRef, onCompleteChange, disabled }: CardPayProps) {
  const [entry, setEntry] = useState<CardEntry | null>(null);
  const onEntryChange = useCallback(
    (next: CardEntry, complete: boolean) => {
      setEntry(next);
      onCompleteChange(complete);
    },
    [onCompleteChange],
  );
  useEffect(() => {
    confirmRef.current = entry
      ? (clientSecret) => confirmSandboxPayment(clientSecret, { card: cardPayload(entry) })
      : null;
    return () => {
      confirmRef.current = null;
    };
  }, [entry, confirmRef]);
  return (
    <SandboxCardFields
      onEntryChange={onEntryChange}
      disabled={disabled}
      layout="row"
      expiryLabel="Expiration"
      note="Test mode: payments go to our test gateway and no real card is charged."
    />
  );
}
