import { type RefObject, useEffect, useRef, useState } from 'react';
import type { SavedCard } from '@ampere/domain/contract/account';
import type { PaymentSecrets } from '@ampere/domain/contract/booking';
import { NEW_CARD } from './components/payment-method.tsx';
import { heldPayment } from './payment-secret-store.ts';

export interface CardChoice {
  /** The payment's client secrets the card form confirms (spec 4 'Payment secret'), once made. */
  secrets: PaymentSecrets | null;
  setSecrets(secrets: PaymentSecrets | null): void;
  provider: 'stripe' | 'sandbox';
  /** A saved card's id, or NEW_CARD. */
  chosen: string;
  /** The renter picks a payment method: from then on a refreshed card list leaves the choice alone. */
  choose(method: string): void;
  /** Spec 5: a saved card, or a new card whose form is complete (and, for Stripe, drawn for a secret). */
  ready: boolean;
  /** The card form's confirm, put there by the form once drawn. */
  confirmNew: RefObject<((clientSecret: string) => Promise<string>) | null>;
  onCompleteChange(complete: boolean): void;
}

/** How Review & Pay will take the money: the payment's secrets, the card chosen and the new card's form. */
export function useCardChoice(id: string, loadComplete: boolean, cards: SavedCard[] | undefined): CardChoice {
  const [secrets, setSecrets] = useState<PaymentSecrets | null>(() => heldPayment(id)?.secrets ?? null);
  const [method, setMethod] = useState<string | null>(null);
  const [cardComplete, setCardComplete] = useState(false);
  const confirmNew = useRef<((clientSecret: string) => Promise<string>) | null>(null);
  const picked = useRef(false);

  useEffect(() => {
    // The load made (or found) the payment: its secrets are the card form's.
    if (loadComplete) setSecrets(heldPayment(id)?.secrets ?? null);
  }, [loadComplete, id]);
  useEffect(() => {
    // Spec 4: the first saved card is chosen to begin with; without one, a new card. A list read
    // from the cache before the renter's first card was saved is replaced when it refreshes.
    if (!picked.current && cards) setMethod(cards[0]?.id ?? NEW_CARD);
  }, [cards]);

  const provider = secrets?.provider ?? 'sandbox';
  const chosen = method ?? NEW_CARD;
  return {
    secrets,
    setSecrets,
    provider,
    chosen,
    choose: (next) => {
      picked.current = true;
      setMethod(next);
    },
    ready: chosen !== NEW_CARD || (cardComplete && (provider === 'sandbox' || !!secrets)),
    confirmNew,
    onCompleteChange: setCardComplete,
  };
}
