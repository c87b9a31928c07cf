import { useQuery } from '@tanstack/react-query';
import { type RefObject, useEffect, useState } from 'react';
import type { SavedCard, User } from '@ampere/domain/contract/account';
import type { Reservation } from '@ampere/domain/contract/booking';
import { paths } from '../../shared/paths.ts';
import { userQueryOptions } from '../../shared/auth/get-user.ts';
import { useSession } from '../../shared/auth/use-session.ts';
import { creditCardsQueryOptions } from '../payments/public/get-credit-cards.ts';
import { useReservation } from './public/get-reservation.ts';
import { signaturesMissing } from './public/booking-rules.ts';
import { useNavigate } from '../../shared/router/react.tsx';
import { type PayLoad, usePayLoad } from './use-pay-load.ts';

/** Spec 9: the loading overlay hides 300 ms after the progress reaches 100. */
const OVERLAY_HIDE_MS = 300;

export interface PayData {
  load: PayLoad;
  /** The trip as the server last answered. */
  trip: Reservation | undefined;
  /** The renter whose details the page shows: as read again once loaded, else as loaded. */
  renter: User | null;
  /** The renter's saved cards, once read (only with a balance to pay). */
  cards: SavedCard[] | undefined;
  /** The loading overlay is still up (it stays 300 ms past the load). */
  overlay: boolean;
}

/**
 * What Review & Pay reads (spec 2 and 4): the loading sequence, the trip, the renter and the saved
 * cards (once there is a balance), and how long the loading overlay stays.
 */
export function usePayData(id: string): PayData {
  const session = useSession();
  const load = usePayLoad(id);
  const reservation = useReservation(id);
  const user = useQuery({ ...userQueryOptions(session?.token ?? ''), enabled: !!session && load.complete });
  const cards = useQuery({ ...creditCardsQueryOptions(), enabled: load.complete && load.outstanding });
  const [overlay, setOverlay] = useState(true);
  useEffect(() => {
    if (!load.complete) return;
    const timer = setTimeout(() => setOverlay(false), OVERLAY_HIDE_MS);
    return () => clearTimeout(timer);
  }, [load.complete]);
  return { load, trip: reservation.data, renter: user.data ?? load.user, cards: cards.data, overlay };
}

/**
 * Spec 4: payment sends back to signature if a signature goes missing (e.g. collision protection
 * added elsewhere); never once the trip is paid and the page is leaving, nor for a cancelled trip.
 */
export function useBackToSignature(
  id: string,
  complete: boolean,
  trip: Reservation | undefined,
  leaving: RefObject<boolean>,
): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (!leaving.current && complete && trip && trip.status !== 'Canceled' && signaturesMissing(trip))
      void navigate(paths.trip.signature(id), { replace: true });
  }, [complete, trip, id, navigate, leaving]);
}
