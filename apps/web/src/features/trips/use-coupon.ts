import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { PaymentSecrets } from '@ampere/domain/contract/booking';
import { ApiError } from '../../shared/api/client.ts';
import { reservationKeys } from './public/get-reservation.ts';
import { hasPendingCharges } from './public/booking-rules.ts';
import { applyDiscount } from './api/apply-discount.ts';
import { createPaymentOnce, holdSecrets } from './payment-secret-store.ts';

export const COUPON_FALLBACK = 'Failed to apply coupon code. Please try again.';

/** Spec 8: the coupon error toast shows the server's detail, else its message, else a fixed text. */
export function couponMessage(err: unknown): string {
  if (err instanceof ApiError) {
    const detail = (err.data as { detail?: unknown } | undefined)?.detail;
    if (typeof detail === 'string' && detail) return detail;
    if (err.message) return err.message;
  }
  return COUPON_FALLBACK;
}

export interface Coupon {
  /** Applies a code to the trip; false when it was refused (the toast says why). */
  apply(code: string): Promise<boolean>;
  /** The refusal shown in the toast, until it closes. */
  toast: string | null;
  closeToast(): void;
}

/**
 * Review & Pay's coupon (spec 4 and 8): the trip and the payment's secrets follow the discount; if
 * the answer carries no payment while something is owed, a payment for the new amount is made.
 */
export function useCoupon(id: string, onSecrets: (secrets: PaymentSecrets | null) => void): Coupon {
  const queryClient = useQueryClient();
  const [toast, setToast] = useState<string | null>(null);
  const closeToast = useCallback(() => setToast(null), []);

  const apply = async (code: string): Promise<boolean> => {
    try {
      const answer = await applyDiscount(id, code);
      queryClient.setQueryData(reservationKeys.detail(id), answer.reservation);
      holdSecrets(id, answer.stripe);
      onSecrets(answer.stripe);
      if (!answer.stripe && hasPendingCharges(answer.reservation.transactions)) {
        // The discount changed the amount: a payment for the new amount, so the card form has its secret.
        createPaymentOnce(id).then(
          (payment) => {
            queryClient.setQueryData(reservationKeys.detail(id), payment.reservation);
            onSecrets(payment.stripe);
          },
          (err: unknown) => console.error('pay: creating the payment after the coupon failed', err),
        );
      }
      return true;
    } catch (err) {
      console.error('pay: the coupon was refused', err);
      setToast(couponMessage(err));
      return false;
    }
  };

  return { apply, toast, closeToast };
}
