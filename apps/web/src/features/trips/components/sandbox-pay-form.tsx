import { useCallback, useEffect, useRef, useState } from 'react';
import { type CardEntry, cardPayload } from '../../payments/public/card-entry.ts';
import { SandboxCardFields } from '../../payments/public/sandbox-card-fields.tsx';
import { confirmSandboxPayment } from '../api/confirm-sandbox-payment.ts';
import type { CardPayProps } from './card-pay-props.ts';

/** The offline gateway's card form on the payment page: the same fields, confirming payment intents. */
export function SandboxPayForm({ confirmRef, onCompleteChange, onEdit, disabled }: CardPayProps) {
  const [entry, setEntry] = useState<CardEntry | null>(null);
  // The fields report their entry when drawn and on every change; only a new entry is an edit.
  const last = useRef<CardEntry | null>(null);
  const onEntryChange = useCallback(
    (next: CardEntry, complete: boolean) => {
      if (last.current && last.current !== next) onEdit();
      last.current = next;
      setEntry(next);
      onCompleteChange(complete);
    },
    [onCompleteChange, onEdit],
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
