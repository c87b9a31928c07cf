import type { RefObject } from 'react';

/** What the payment page's card forms (the offline sandbox and Stripe's Payment Element) take. */
export interface CardPayProps {
  /** Stripe only: the intent the Payment Element is created for (the charge, else the deposit hold). */
  clientSecret: string | null;
  publishableKey: string | null;
  /** The form puts its confirm here: confirms an intent with the card entered and resolves with the payment method used; throws with the provider's message. */
  confirmRef: RefObject<((clientSecret: string) => Promise<string>) | null>;
  onCompleteChange(complete: boolean): void;
  /** The renter changed what the card form holds (not called when it first draws): a refused card's message is stale. */
  onEdit(): void;
  disabled: boolean;
}
