import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from '../../shared/router/react.tsx';
import type { User } from '@ampere/domain/contract/account';
import { paths } from '../../shared/paths.ts';
import { ApiError } from '../../shared/api/client.ts';
import { userQueryOptions } from '../../shared/auth/get-user.ts';
import { getSession } from '../../shared/auth/session-store.ts';
import { creditCardsQueryOptions } from '../payments/public/get-credit-cards.ts';
import { reservationKeys, reservationQueryOptions } from './public/get-reservation.ts';
import { hasPendingCharges, signaturesMissing } from './public/booking-rules.ts';
import { LOAD_STEPS } from './components/pay-loading.tsx';
import { createPaymentOnce, heldPayment } from './payment-secret-store.ts';

export interface PayLoad {
  /** Steps finished (of 6): user, reservation, payment creation, reservation refresh, saved cards, prefill. */
  done: number;
  complete: boolean;
  failed: boolean;
  /** The renter as loaded, for the prefill (locks are decided from it, not from later saves). */
  user: User | null;
  outstanding: boolean;
  /** Why the trip changed while its payment was made (a 409: a coupon no longer valid came off), for the renter. */
  notice: string | null;
}

/**
 * The payment page's loading sequence (spec 2 and 4). A trip missing a signature goes back to the
 * signature page; with a balance, a payment is created (unless one is held), the trip refreshed
 * and the saved cards loaded; without one, the steps complete with no payment form. A failure is
 * logged and the progress completes (spec 8).
 */
export function usePayLoad(platformId: string): PayLoad {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [state, setState] = useState<PayLoad>({
    done: 0,
    complete: false,
    failed: false,
    user: null,
    outstanding: false,
    notice: null,
  });

  useEffect(() => {
    let live = true;
    const step = (patch: Partial<PayLoad> = {}) =>
      live && setState((s) => ({ ...s, done: Math.min(LOAD_STEPS, s.done + 1), ...patch }));
    // Never rejects: the catch below turns any failure into the failed state.
    void (async () => {
      try {
        const token = getSession()?.token ?? '';
        const user = await queryClient.fetchQuery({ ...userQueryOptions(token), staleTime: 0 });
        step({ user });
        const reservation = await queryClient.fetchQuery({ ...reservationQueryOptions(platformId), staleTime: 0 });
        if (!live) return;
        // A cancelled trip (a lapsed hold among them) has nothing to sign: the page says why it ended.
        if (reservation.status !== 'Canceled' && signaturesMissing(reservation)) {
          void navigate(paths.trip.signature(platformId), { replace: true });
          return;
        }
        const outstanding = hasPendingCharges(reservation.transactions);
        step({ outstanding });
        if (outstanding) {
          if (!heldPayment(platformId)) {
            try {
              const answer = await createPaymentOnce(platformId);
              queryClient.setQueryData(reservationKeys.detail(platformId), answer.reservation);
            } catch (err) {
              // Spec 8: a payment creation failure is logged; submitting tries again.
              console.error('pay: creating the payment failed', err);
              if (err instanceof ApiError && err.status === 409 && live)
                setState((s) => ({ ...s, notice: err.message }));
            }
          }
          step();
          await queryClient.fetchQuery({ ...reservationQueryOptions(platformId), staleTime: 0 });
          step();
          await queryClient.fetchQuery({ ...creditCardsQueryOptions(), staleTime: 0 }).catch((err: unknown) => {
            console.error('pay: the saved cards could not be loaded', err);
            return [];
          });
          step();
        } else {
          step();
          step();
          step();
        }
        step({ complete: true });
      } catch (err) {
        console.error('pay: the payment page could not load', err);
        if (live) setState((s) => ({ ...s, done: LOAD_STEPS, complete: true, failed: true }));
      }
    })();
    return () => {
      live = false;
    };
  }, [platformId, queryClient, navigate]);

  return state;
}
