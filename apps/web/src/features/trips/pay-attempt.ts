import type { QueryClient } from '@tanstack/react-query';
import type { ConfirmationTitle } from '@ampere/domain/booking';
import type { PaymentSecrets } from '@ampere/domain/contract/booking';
import { formatTotal } from '@ampere/domain/money';
import { track } from '../../shared/analytics.ts';
import { ApiError } from '../../shared/api/client.ts';
import { paths } from '../../shared/paths.ts';
import { cardKeys } from '../payments/public/get-credit-cards.ts';
import { reservationKeys } from './public/get-reservation.ts';
import { pendingTotalCents } from './public/booking-rules.ts';
import type { NavigateOptions } from '../../shared/router/core.ts';
import { checkEligibility } from './api/check-eligibility.ts';
import { confirmReservation } from './api/confirm-reservation.ts';
import { type CardSource, confirmWithFor, payWithGateway } from './pay-with-gateway.ts';
import { clearSecrets, createPaymentOnce, heldPayment } from './payment-secret-store.ts';

const CARD_REFUSED = 'Your payment could not be completed. Try another card.';

export const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * One try at paying on Review & Pay, as usePaySubmit runs it: the trip as it stood when the renter
 * pressed pay, the page's cache, and how the page tells the renter why a try stopped.
 */
export interface Attempt {
  id: string;
  queryClient: QueryClient;
  /** A new booking (Started): the soft credit check first, and the trip page after. */
  isNew: boolean;
  /** The confirmation's title for a change or a balance. */
  title: ConfirmationTitle;
  /** The total the renter was shown: they pay exactly that, or are told it changed. */
  totalCents: number;
  onSecrets(secrets: PaymentSecrets | null): void;
  /** Ends the try, the renter told why (`tell`): the button comes back. */
  stop(tell: () => void): false;
  disqualify(): void;
  /** A message above the button: the try stopped before the card. */
  explain(message: string): void;
  /** The provider's message under the card form. */
  refuseCard(message: string): void;
  /** Paid: the page shows the payment received and leaves. */
  paid(): void;
  open(to: string, options: NavigateOptions): Promise<void>;
}

/** Spec 5: the soft credit check; not passed, the dialog says so and nothing is charged. */
export async function passesCreditCheck(a: Attempt): Promise<boolean> {
  const eligible = await checkEligibility(a.id);
  track(eligible ? 'reservation_eligibility_check_success' : 'reservation_eligibility_check_failed', {
    platform_id: a.id,
  });
  return eligible || a.stop(() => a.disqualify());
}

/**
 * The secrets to confirm at the gateway (null: nothing to confirm there), or false when the try
 * stops. Nothing confirmed yet: the payment is asked for again, as the trip may have changed since
 * it was made (a birthday adds the underage fee, a coupon can no longer be used); the server then
 * canceled the old charge (decision 018). The renter pays only the total they were shown.
 */
export async function paymentToConfirm(a: Attempt): Promise<PaymentSecrets | null | false> {
  const held = heldPayment(a.id);
  if (held?.chargedWith) return held.secrets;
  let answer: Awaited<ReturnType<typeof createPaymentOnce>>;
  try {
    answer = await createPaymentOnce(a.id);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 409)) throw err;
    console.error('pay: the trip changed before paying', err);
    void a.queryClient.invalidateQueries({ queryKey: reservationKeys.detail(a.id) });
    return a.stop(() => a.explain(err.message));
  }
  a.queryClient.setQueryData(reservationKeys.detail(a.id), answer.reservation);
  a.onSecrets(answer.stripe);
  const nowTotal = pendingTotalCents(answer.reservation);
  if (nowTotal !== a.totalCents)
    return a.stop(() => a.explain(`Your total changed to ${formatTotal(nowTotal)}. Check it, then pay again.`));
  return answer.stripe;
}

/** The card at the gateway; false when refused (spec 8: the provider's message under the card form, saved cards too). */
export async function charge(a: Attempt, secrets: PaymentSecrets, source: CardSource): Promise<boolean> {
  try {
    await payWithGateway(a.id, secrets, source, confirmWithFor(secrets));
    return true;
  } catch (err) {
    console.error('pay: the card was refused', err);
    return a.stop(() => {
      a.refuseCard(err instanceof Error && err.message ? err.message : CARD_REFUSED);
      // The message shows under the card form, which may be far above the button pressed: bring it into view.
      requestAnimationFrame(() =>
        document.getElementById('payment-title')?.scrollIntoView({ behavior: 'smooth', block: 'start' }),
      );
      track('payment_failed', { platform_id: a.id, total: a.totalCents, reason: reasonOf(err) });
    });
  }
}

/** The trip is confirmed; the page's cache follows, and the next page opens. */
export async function confirmAndOpen(a: Attempt): Promise<void> {
  const confirmed = await confirmReservation(a.id);
  a.paid();
  clearSecrets(a.id);
  a.queryClient.setQueryData(reservationKeys.detail(a.id), confirmed);
  void a.queryClient.invalidateQueries({ queryKey: reservationKeys.all });
  // A new card was saved with the payment: the next payment offers it first.
  void a.queryClient.invalidateQueries({ queryKey: cardKeys.all });
  track('payment_completed', { platform_id: a.id, total: a.totalCents });
  // Spec 4: a new (Started) reservation goes to the trip page; anything else to the confirmation.
  void a.open(a.isNew ? paths.trip.detail(a.id) : paths.trip.confirmation(a.id), {
    state: a.isNew ? { booked: true } : { title: a.title },
  });
}
