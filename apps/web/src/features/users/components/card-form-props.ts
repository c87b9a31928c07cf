import type { RefObject } from 'react';

/** What both card forms (the offline sandbox and Stripe's Payment Element) take from the Add New Card modal. */
export interface CardFormProps {
  clientSecret: string;
  publishableKey: string | null;
  /** The form puts its confirm here: resolves when the card is saved, throws with the provider's message. */
  confirmRef: RefObject<(() => Promise<void>) | null>;
  onCompleteChange(complete: boolean): void;
  disabled: boolean;
}
