import { useQueryClient } from '@tanstack/react-query';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { PaymentSecrets, Reservation } from '@ampere/domain/contract/booking';
import { track } from '../../shared/analytics.ts';
import { confirmationTitle, hasPendingCharges, pendingTotalCents, submitLabel } from './public/booking-rules.ts';
import { useNavigate } from '../../shared/router/react.tsx';
import { type Attempt, charge, confirmAndOpen, passesCreditCheck, paymentToConfirm, reasonOf } from './pay-attempt.ts';
import { cardSourceFor } from './pay-with-gateway.ts';
import type { CardChoice } from './use-card-choice.ts';

export interface PaySubmitInput {
  id: string;
  /** The trip as the server last answered: the one the renter pays for when they press pay. */
  trip: Reservation | undefined;
  /** The card and the renter's details are complete (spec 5). */
  ready: boolean;
  method: string;
  confirmNew: CardChoice['confirmNew'];
  /** The profile saves under way, which paying waits for. */
  saves: RefObject<Set<Promise<unknown>>>;
  onSecrets(secrets: PaymentSecrets | null): void;
}

export interface PaySubmit {
  submit(): Promise<void>;
  canSubmit: boolean;
  submitting: boolean;
  /**
   * The trip to show. While paying, the trip as it stood when the renter pressed pay, until the
   * next page opens: the payment settles it, and a settled trip would read 'You're all caught up!'.
   */
  shown: Reservation | undefined;
  /** The payment landed: confirmed, or the trip already settled by the payment's own event. */
  received: boolean;
  cardError: string | null;
  clearCardError(): void;
  submitError: string | null;
  disqualified: boolean;
  closeDisqualified(): void;
  /** Paid: the page is on its way to the next one. */
  leaving: RefObject<boolean>;
}

/**
 * Paying on Review & Pay (spec 4, 5 and 8): the profile saves, the soft credit check for a new
 * booking, a payment for the total shown, the card at the gateway (the charge, then the deposit
 * hold), the confirmation and the next page. Each way a try stops tells the renter why and gives
 * the button back (the steps are in pay-attempt.ts).
 */
export function usePaySubmit({ id, trip, ready, method, confirmNew, saves, onSecrets }: PaySubmitInput): PaySubmit {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [submitting, setSubmitting] = useState(false);
  const [pressed, setPressed] = useState<Reservation | null>(null);
  const [paid, setPaid] = useState(false);
  const [cardError, setCardError] = useState<string | null>(null);
  // Stable: the card form calls it on every edit.
  const clearCardError = useCallback(() => setCardError(null), []);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [disqualified, setDisqualified] = useState(false);
  const leaving = useRef(false);
  useEffect(() => {
    // Under the fixed bar on a phone the message could sit out of sight: bring it into view.
    if (submitError)
      document.getElementById('pay-submit-error')?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  }, [submitError]);
  const canSubmit = !submitting && ready;

  const submit = async () => {
    if (!canSubmit || !trip) return;
    const attempt: Attempt = {
      id,
      queryClient,
      isNew: trip.status === 'Started',
      // The confirmation's title is read on the trip as it stood when the renter pressed pay.
      title: confirmationTitle(trip),
      totalCents: pendingTotalCents(trip),
      onSecrets,
      stop: (tell) => {
        tell();
        setSubmitting(false);
        return false;
      },
      disqualify: () => setDisqualified(true),
      explain: setSubmitError,
      refuseCard: setCardError,
      paid: () => {
        leaving.current = true;
        setPaid(true);
      },
      open: navigate,
    };
    track('payment_button_clicked', { platform_id: id, total: attempt.totalCents, label: submitLabel(trip) });
    setPressed(trip);
    setSubmitting(true);
    setCardError(null);
    setSubmitError(null);
    try {
      await Promise.allSettled([...saves.current]);
      if (attempt.isNew && !(await passesCreditCheck(attempt))) return;
      const secrets = await paymentToConfirm(attempt);
      if (secrets === false) return;
      if (secrets && !(await charge(attempt, secrets, cardSourceFor(method, confirmNew)))) return;
      await confirmAndOpen(attempt);
    } catch (err) {
      console.error('pay: the payment could not be completed', err);
      track('payment_failed', { platform_id: id, total: attempt.totalCents, reason: reasonOf(err) });
      setSubmitError("We couldn't complete your payment. Please try again.");
      setSubmitting(false);
    }
  };

  return {
    submit,
    canSubmit,
    submitting,
    shown: submitting && pressed ? pressed : trip,
    received: paid || (submitting && !!trip && !hasPendingCharges(trip.transactions)),
    cardError,
    clearCardError,
    submitError,
    disqualified,
    closeDisqualified: () => setDisqualified(false),
    leaving,
  };
}
