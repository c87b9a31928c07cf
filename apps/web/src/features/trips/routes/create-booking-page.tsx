import { Anchor, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from '../../../shared/router/react.tsx';
import type { Reservation, ReservationCreateBody } from '@ampere/domain/contract/booking';
import { paths } from '../../../shared/paths.ts';
import { track } from '../../../shared/analytics.ts';
import { ApiError } from '../../../shared/api/client.ts';
import { getSession } from '../../../shared/auth/session-store.ts';
import { flagsQueryOptions } from '../../../shared/flags/get-flags.ts';
import { reservationKeys } from '../public/get-reservation.ts';
import { createReservation } from '../api/create-reservation.ts';
import { relatedAddonsQueryOptions } from '../api/get-related-addons.ts';
import { afterBookingRoute, hasDamageWaiverOn } from '../public/booking-rules.ts';
import { DO_NOT_RENT_MESSAGE } from '@ampere/domain/renter-review';
import { SupportContact } from '../components/support-contact.tsx';

/** The create-booking query (spec 2), as the reservation body. addonIds is a JSON list. */
function bookingBody(params: URLSearchParams): ReservationCreateBody {
  let addonIds: string[] = [];
  try {
    const parsed: unknown = JSON.parse(params.get('addonIds') ?? '[]');
    if (Array.isArray(parsed)) addonIds = parsed.filter((x): x is string => typeof x === 'string');
  } catch {
    console.warn('create-booking: addonIds is not a JSON list; booking without add-ons', params.get('addonIds'));
  }
  return {
    vehicleVin: params.get('vehicleVin') ?? '',
    pickupDate: params.get('pickupDate') ?? '',
    pickupTime: params.get('pickupTime') ?? '',
    returnDate: params.get('returnDate') ?? '',
    returnTime: params.get('returnTime') ?? '',
    addonIds,
    vehicleTimezone: params.get('vehicleTimezone') ?? '',
    gclid: params.get('gclid') || null,
  };
}

/** One key per create-booking visit (this query string), kept for the tab's life so a reload books nothing twice. */
function idempotencyKey(search: string): string {
  const storageKey = `create-booking:${search}`;
  try {
    let key = sessionStorage.getItem(storageKey);
    if (!key) sessionStorage.setItem(storageKey, (key = crypto.randomUUID()));
    return key;
  } catch {
    return crypto.randomUUID();
  }
}

// React runs a mount effect twice in development: both runs share one call per key.
const inFlight = new Map<string, Promise<Reservation>>();

/**
 * /create-booking (spec 2 and 4): creates the reservation from the query, then goes on to the
 * damage-waiver page or the signature page, replacing this page in history. A 409 (the car was
 * taken) goes back to the vehicle page with the Vehicle Unavailable dialog and the dates kept;
 * other failures are logged, with a way back to the car.
 */
export function CreateBookingPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failed, setFailed] = useState<string | null>(null);
  const search = params.toString();

  useEffect(() => {
    let live = true;
    const query = new URLSearchParams(search);
    const body = bookingBody(query);
    const key = idempotencyKey(search);
    let call = inFlight.get(key);
    if (!call) {
      call = createReservation(body, key);
      inFlight.set(key, call);
      const forget = () => inFlight.delete(key);
      call.then(forget, forget);
    }
    // Never rejects: every failure is caught below and shown or logged.
    void (async () => {
      try {
        const reservation = await call;
        queryClient.setQueryData(reservationKeys.detail(reservation.platform_id), reservation);
        const userId = getSession()?.user?.id ?? null;
        const [flags, addons] = await Promise.all([
          queryClient.fetchQuery(flagsQueryOptions(userId)).catch((err: unknown) => {
            console.error('create-booking: flags unavailable; using defaults', err);
            return null;
          }),
          queryClient
            .fetchQuery(
              relatedAddonsQueryOptions({
                vehicleVin: reservation.vehicle.vin,
                pickupAt: reservation.pickup_at,
                returnAt: reservation.return_at,
              }),
            )
            .catch((err: unknown) => {
              console.error('create-booking: add-ons unavailable', err);
              return [];
            }),
        ]);
        if (!live) return;
        const waiver = addons.find((a) => a.type === 'DAMAGE_WAIVER');
        track('booking_started', {
          platform_id: reservation.platform_id,
          vin: reservation.vehicle.vin,
          addon_ids: body.addonIds,
        });
        const next = afterBookingRoute({
          waiverAvailable: !!waiver,
          waiverChosen: hasDamageWaiverOn(reservation) || (!!waiver && body.addonIds.includes(waiver.id)),
          skipDamageWaiver: flags?.['skip-damage-waiver'] ?? false,
          redirectToDamageWaiver: query.get('redirectToDamageWaiver') === 'true',
        });
        const id = reservation.platform_id;
        void navigate(next === 'damage-waiver' ? paths.trip.damageWaiver(id) : paths.trip.signature(id), {
          replace: true,
        });
      } catch (err) {
        if (!live) return;
        if (err instanceof ApiError && err.status === 409) {
          void navigate(
            paths.vehicle(body.vehicleVin, {
              pickupDate: body.pickupDate,
              pickupTime: body.pickupTime,
              returnDate: body.returnDate,
              returnTime: body.returnTime,
              vehicleUnavailableModal: 'true',
            }),
            { replace: true },
          );
          return;
        }
        // Spec 8: other reservation-creation errors are only logged.
        console.error('create-booking: the reservation could not be created', err);
        // A refusal the renter can act on (e.g. too many unpaid bookings) is said as the server words it.
        setFailed(
          err instanceof ApiError && err.status === 422
            ? err.message
            : 'Something went wrong while booking this car. Nothing was charged.',
        );
      }
    })();
    return () => {
      live = false;
    };
  }, [search, navigate, queryClient]);

  const vin = params.get('vehicleVin');
  if (failed) {
    return (
      <Stack p="xl" gap="sm" align="center" ta="center">
        <Title order={1} size="h2">
          We couldn't create your booking
        </Title>
        <Text>{failed}</Text>
        {/* An account that cannot book right now is pointed to support, who can say why (decision 095). */}
        {failed === DO_NOT_RENT_MESSAGE && <SupportContact />}
        <Anchor
          c="ampere.8"
          underline="always"
          component={Link}
          to={
            vin
              ? paths.vehicle(vin, {
                  pickupDate: params.get('pickupDate'),
                  pickupTime: params.get('pickupTime'),
                  returnDate: params.get('returnDate'),
                  returnTime: params.get('returnTime'),
                })
              : paths.search()
          }
        >
          {vin ? 'Back to the car' : 'Search vehicles'}
        </Anchor>
      </Stack>
    );
  }
  return (
    <Center py={80}>
      <Stack align="center" gap="md" role="status" aria-live="polite">
        <Loader aria-hidden="true" />
        <Title order={1} size="h3">
          Creating your booking…
        </Title>
      </Stack>
    </Center>
  );
}
