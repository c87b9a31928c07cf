import type { PaymentSecrets, Reservation } from '@ampere/domain/contract/booking';
import { createPayment } from './api/create-payment.ts';

/**
 * The payment's client secrets for each trip, held for the page's life (spec 4 'Payment secret':
 * creating a payment, applying a discount or adding add-ons replaces the stored secret; confirming
 * clears it). Also remembers which intents the gateway already confirmed, so a retry after a
 * refused deposit hold does not charge the card again.
 */
interface Held {
  secrets: PaymentSecrets;
  /** The payment method the charge was confirmed with, once it was. */
  chargedWith: string | null;
  depositHeld: boolean;
}

const held = new Map<string, Held>();

export function holdSecrets(platformId: string, secrets: PaymentSecrets | null): void {
  if (secrets) held.set(platformId, { secrets, chargedWith: null, depositHeld: false });
  else held.delete(platformId);
}

export const heldPayment = (platformId: string): Held | null => held.get(platformId) ?? null;

export function noteChargeConfirmed(platformId: string, paymentMethod: string): void {
  const h = held.get(platformId);
  if (h) h.chargedWith = paymentMethod;
}

export function noteDepositHeld(platformId: string): void {
  const h = held.get(platformId);
  if (h) h.depositHeld = true;
}

export const clearSecrets = (platformId: string) => held.delete(platformId);

const creating = new Map<string, Promise<{ reservation: Reservation; stripe: PaymentSecrets | null }>>();

/** POST /api/v1/payments once per trip at a time (React's double effects, a quick double click share the call). */
export function createPaymentOnce(platformId: string) {
  let call = creating.get(platformId);
  if (!call) {
    call = createPayment(platformId).then((answer) => {
      holdSecrets(platformId, answer.stripe);
      return answer;
    });
    creating.set(platformId, call);
    const forget = () => creating.delete(platformId);
    call.then(forget, forget);
  }
  return call;
}
