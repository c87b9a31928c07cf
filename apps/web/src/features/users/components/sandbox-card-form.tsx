import { useCallback, useEffect, useState } from 'react';
import { type CardEntry, cardPayload } from '../../payments/public/card-entry.ts';
import { SandboxCardFields } from '../../payments/public/sandbox-card-fields.tsx';
import { confirmSandboxSetup } from '../api/confirm-sandbox-setup.ts';
import type { CardFormProps } from './card-form-props.ts';

/** The offline gateway's card form for saving a card: confirms the setup intent with what was typed. */
export function SandboxCardForm({ clientSecret, confirmRef, onCompleteChange, disabled }: CardFormProps) {
  const [entry, setEntry] = useState<CardEntry | null>(null);
  const onEntryChange = useCallback(
    (next: CardEntry, complete: boolean) => {
      setEntry(next);
      onCompleteChange(complete);
    },
    [onCompleteChange],
  );
  useEffect(() => {
    confirmRef.current = entry ? () => confirmSandboxSetup(clientSecret, cardPayload(entry)) : null;
    return () => {
      confirmRef.current = null;
    };
  }, [clientSecret, entry, confirmRef]);
  return (
    <SandboxCardFields
      onEntryChange={onEntryChange}
      disabled={disabled}
      layout="stacked"
      expiryLabel="Expiration date"
      note="Test mode: cards are saved with our test gateway and never charged."
    />
  );
}
