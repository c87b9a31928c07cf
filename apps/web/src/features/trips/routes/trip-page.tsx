import { Alert, Anchor, Button, Group, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, Suspense, lazy, memo, startTransition, useEffect, useState } from 'react';
import { Link, useLocation, useParams, useSearchParams } from '../../../shared/router/react.tsx';
import { TakenOverLater } from '../../../shared/ui/taken-over-later.tsx';
import { type SearchQuery, readSearchQuery, searchQueryRecord } from '../../../shared/search-query.ts';
import { ADDON_LABELS } from '@ampere/domain/constants';
import type { Agreement, Reservation } from '@ampere/domain/contract/booking';
import { endingIn, formatDateShort } from '@ampere/domain/format';
import { formatBattery, formatMiles } from '@ampere/domain/receipt';
import { formatTotal } from '@ampere/domain/money';
import { discountLabel } from '@ampere/domain/line-items';
import { paths, patterns } from '../../../shared/paths.ts';
import { userQueryOptions } from '../../../shared/auth/get-user.ts';
import { EmailAddress } from '../../../shared/ui/email-address.tsx';
import { PhoneNumber } from '../../../shared/ui/phone-number.tsx';
import { useSession } from '../../../shared/auth/use-session.ts';
import { cardBrandName } from '../../../shared/ui/card-brand-icon.tsx';
import { DigitalKeyBlock } from '../../keys/public/digital-key-block.tsx';
import { TripVerificationCard } from '../../verification/public/verification-card.tsx';
import { TRIP_STATUS_LABELS, canBookAgain, hasOutstandingBalance } from '@ampere/domain/booking';
import { mainPhoto } from '@ampere/domain/photos';
import { searchAgain } from '@ampere/domain/home';
import { chargeItems, depositLabel, groupedLines, pendingTotalCents, tripTotalCents } from '../public/booking-rules.ts';
import { getAgreementUrl } from '../api/get-agreement-url.ts';
import { useReservation } from '../public/get-reservation.ts';
import { BookedPanel } from '../components/booked-panel.tsx';
import { CancelTrip } from '../components/cancel-trip.tsx';
import { EndTrip } from '../components/end-trip.tsx';
import { ModifyTrip } from '../components/modify-trip.tsx';
import { TripPlace } from '../components/trip-place.tsx';
import { TripFailure, TripLoading } from '../../../shared/errors/trip-fallback.tsx';
import { CancelledNotice } from '../components/cancelled-notice.tsx';
import classes from '../components/trip.module.css';
import '../../../shared/ui/mantine-extra-styles.ts';
import { useDeferredData } from '../../../shared/use-deferred-data.ts';

// Drawn only by the browser, after the take-over, with their code loaded then (decision 066, addendum).
const InspectionPhotos = lazy(() =>
  import('../../inspections/public/inspection-photos.tsx').then((m) => ({ default: m.InspectionPhotos })),
);
const TripCharges = lazy(() =>
  import('../../charges/public/trip-charges.tsx').then((m) => ({ default: m.TripCharges })),
);

const STATUS_CLASS: Record<string, string | undefined> = {
  Pending: classes.statusPending,
  'On Rent': classes.statusOnRent,
  Started: classes.statusStarted,
  Canceled: classes.statusCanceled,
  Returned: classes.statusReturned,
};
const AGREEMENT_NAMES: Record<Agreement['type'], string> = {
  RENTAL_AGREEMENT: 'Rental Agreement',
  DAMAGE_WAIVER: `${ADDON_LABELS.DAMAGE_WAIVER} waiver`,
  LIABILITY_INSURANCE: 'Liability Insurance',
};

/** The signed-in renter: the stored one until their refresh answers. */
function useRenter() {
  const session = useSession();
  return useQuery({
    ...userQueryOptions(session?.token ?? ''),
    enabled: !!session,
    placeholderData: session?.user ?? undefined,
  });
}

/**
 * Spec 2 'driver details': phone, license number and email, read-only (changed on the profile). It
 * reads the renter itself, so their refresh answering redraws it alone, not the page around it.
 */
function DriverDetails() {
  const user = useRenter().data ?? null;
  return (
    <section className={classes.panel} aria-labelledby="driver-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="driver-title">
          Driver details
        </Title>
        <Anchor component={Link} to={paths.profile()} size="sm" c="ampere.8">
          Edit in profile
        </Anchor>
      </Group>
      <dl className={classes.details}>
        <div>
          <dt>Phone</dt>
          <dd>{user ? <PhoneNumber e164={user.phone} /> : '—'}</dd>
        </div>
        <div>
          <dt>Driver's license</dt>
          <dd>{user?.license_number ?? 'Not verified yet'}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>{user?.email ? <EmailAddress email={user.email} /> : '—'}</dd>
        </div>
      </dl>
    </section>
  );
}

/** Spec 2 'vehicle metrics': the car as it went out and came back (odometer, battery), from the trip's ride. */
function RideMetrics({ ride }: { ride: Reservation['rides'][number] }) {
  const driven = ride.mileage_in !== null && ride.mileage_out !== null ? ride.mileage_in - ride.mileage_out : null;
  return (
    <section className={classes.panel} aria-labelledby="metrics-title">
      <Title order={2} size="h4" id="metrics-title" mb="sm">
        Vehicle metrics
      </Title>
      <dl className={classes.metrics}>
        <div>
          <dt>Mileage out</dt>
          <dd>{formatMiles(ride.mileage_out)}</dd>
        </div>
        <div>
          <dt>Mileage in</dt>
          <dd>{ride.vehicle_return_at ? formatMiles(ride.mileage_in) : 'On Rent'}</dd>
        </div>
        <div>
          <dt>Battery out</dt>
          <dd>{formatBattery(ride.battery_out)}</dd>
        </div>
        <div>
          <dt>Battery in</dt>
          <dd>{ride.vehicle_return_at ? formatBattery(ride.battery_in) : 'On Rent'}</dd>
        </div>
      </dl>
      {driven !== null && (
        <Text size="sm" mt="sm">
          You drove {formatMiles(driven)}.
        </Text>
      )}
    </section>
  );
}

function AgreementRow({ agreement }: { agreement: Agreement }) {
  const [error, setError] = useState<string | null>(null);
  const [opening, setOpening] = useState(false);
  const name = AGREEMENT_NAMES[agreement.type];
  const open = async () => {
    setOpening(true);
    setError(null);
    try {
      const { signed_url } = await getAgreementUrl(agreement.id);
      window.open(signed_url, '_blank', 'noopener');
    } catch (err) {
      // Spec 8: 'Failed to load {agreement name}'.
      console.error(`trip: the ${name} could not be loaded`, err);
      setError(`Failed to load ${name}`);
    } finally {
      setOpening(false);
    }
  };
  return (
    <div className={classes.agreement}>
      <div>
        <Text size="sm" fw={600}>
          {name}
        </Text>
        <Text size="xs" c="dimmed">
          Signed by {agreement.signature} on{' '}
          {/^\d{4}-\d{2}-\d{2}$/.test(agreement.date) ? formatDateShort(agreement.date) : agreement.date}
        </Text>
        {error && (
          <Text size="xs" c="red.9" role="alert">
            {error}
          </Text>
        )}
      </div>
      <Button variant="light" size="xs" onClick={() => void open()} loading={opening} aria-label={`Open ${name}`}>
        Open
      </Button>
    </div>
  );
}

/**
 * Sections whose reads only the browser makes (the car's photos, the charges after the trip): the
 * server draws nothing for them, and most trips have neither. They mount once the part around them
 * is taken over (or drawn), as a transition, so neither their code, their reads nor their answers
 * run in the take-over's tasks. Not `useInBrowser`: that is already true when a later part of the
 * page is taken over, and the part would then differ from what the server drew.
 */
function AfterTakeOver({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false);
  useEffect(() => startTransition(() => setShown(true)), []);
  return shown ? <Suspense fallback={null}>{children}</Suspense> : null;
}

/**
 * Book Again (spec 2): the search the page was opened with, else the trip's own city and model
 * (the home page's Rent Again rule), so an Austin trip searches Austin.
 */
function bookAgainQuery(seed: SearchQuery, r: Reservation) {
  const again = searchAgain(r);
  return {
    ...searchQueryRecord(seed),
    city: seed.searchQuery ? undefined : (seed.city ?? again.city),
    model: seed.model ?? again.model,
  };
}

/**
 * What lies below the photo, in two parts taken over after the top of the page (decision 066). It
 * depends on the trip alone and is memoised: a part not yet taken over that receives a new element is
 * taken over at once, in the task of that render, so the renter's refresh answering during the
 * take-over (which redraws the top) would otherwise take both parts over in one long task.
 */
const TripBelowThePhoto = memo(function TripBelowThePhoto({ reservation: r }: { reservation: Reservation }) {
  const lines = groupedLines(chargeItems(r));
  const discount = lines.reduce((sum, l) => sum + l.discountCents, 0);
  const deposit = r.transactions.filter((t) => t.category === 'Deposit').at(-1);
  // Spec 4's label only once a hold exists: before that the deposit is not yet an 'Authorization'.
  const depositState = deposit ? depositLabel(deposit) : null;
  const canceled = r.status === 'Canceled';
  return (
    <TakenOverLater>
      {!canceled && (
        <AfterTakeOver>
          <InspectionPhotos source={{ kind: 'trip', platformId: r.platform_id }} />
        </AfterTakeOver>
      )}
      <div className={classes.grid}>
        <TripPlace reservation={r} />
        <section className={classes.panel} aria-labelledby="items-title">
          <Title order={2} size="h4" id="items-title" mb="sm">
            Payment details
          </Title>
          <div role="group" aria-label="Line items">
            {lines.map((l) => (
              <div key={l.label} className={classes.line}>
                <span>{l.label}</span>
                <span>{formatTotal(l.cents)}</span>
              </div>
            ))}
            {discount > 0 && (
              <div className={classes.line}>
                <span>{discountLabel(r.discount_code)}</span>
                <span>−{formatTotal(discount)}</span>
              </div>
            )}
            <div className={classes.total}>
              <span>Total</span>
              <span>{formatTotal(tripTotalCents(r))}</span>
            </div>
          </div>
          <div className={classes.line} style={{ marginTop: 10 }}>
            <span>Security deposit{depositState ? ` · ${depositState}` : ''}</span>
            <span>
              {!deposit || !depositState
                ? canceled
                  ? 'Not held'
                  : 'Not held yet'
                : deposit.status === 'Captured'
                  ? `${formatTotal(deposit.captured_amount)} of ${formatTotal(deposit.amount)}`
                  : formatTotal(deposit.amount)}
            </span>
          </div>
          {r.payment_method && (
            <Text size="xs" c="dimmed" mt={6}>
              Paid with {r.payment_method.card_brand ? cardBrandName(r.payment_method.card_brand) : 'card'}{' '}
              {endingIn(r.payment_method.last4)}
            </Text>
          )}
          {r.status !== 'Started' && (
            <Anchor
              component={Link}
              to={paths.trip.receipt(r.platform_id)}
              size="sm"
              c="ampere.8"
              underline="always"
              mt={8}
              display="inline-block"
            >
              Receipt
            </Anchor>
          )}
        </section>
      </div>
      <AfterTakeOver>
        <TripCharges platformId={r.platform_id} />
      </AfterTakeOver>
      <TakenOverLater>
        <DriverDetails />
        {r.rides[0] && <RideMetrics ride={r.rides[0]} />}
        <ModifyTrip reservation={r} />
        <EndTrip reservation={r} />
        <CancelTrip reservation={r} />
        <section className={classes.panel} aria-labelledby="agreements-title">
          <Title order={2} size="h4" id="agreements-title" mb="sm">
            Agreements
          </Title>
          {r.agreements.length === 0 ? (
            <Text size="sm" c="dimmed">
              No agreements signed yet.
            </Text>
          ) : (
            r.agreements.map((a) => <AgreementRow key={a.id} agreement={a} />)
          )}
        </section>
      </TakenOverLater>
    </TakenOverLater>
  );
});

/** /trip/:id (spec 2): the car, status, verification and key, when and where, money, driver, ride, changes and agreements. */
export function TripPage() {
  const { id } = useParams(patterns.trip.detail);
  // Keyed by the trip, so another trip's page starts afresh (no earlier trip shown while it loads).
  return <TripPageFor key={id} id={id} />;
}

function TripPageFor({ id }: { id: string }) {
  const location = useLocation();
  // Spec 2: optional searchQuery, dates, times, model and color seed the search Book Again opens.
  const [params] = useSearchParams();
  const seed = readSearchQuery(params);
  const state = location.state as { notice?: string; booked?: boolean } | null;
  const notice = state?.notice;
  // Set by the payment page when a new trip was just paid for: the 'you're booked' moment, until dismissed.
  const [booked, setBooked] = useState(!!state?.booked);
  const reservation = useReservation(id);
  const user = useRenter();

  // Arriving after the page opened, the data is drawn as a transition, in slices (useDeferredData).
  const r = useDeferredData(reservation.data);

  if (reservation.error) return <TripFailure error={reservation.error} />;
  if (!r) return <TripLoading />;
  const photo = mainPhoto(r.vehicle.images);
  const canceled = r.status === 'Canceled';

  return (
    <div className={classes.page}>
      {notice && (
        <Alert color="yellow" role="status">
          {notice}
        </Alert>
      )}
      {booked && r.status === 'Pending' && (
        <BookedPanel reservation={r} user={user.data ?? null} onClose={() => setBooked(false)} />
      )}
      <div className={classes.head}>
        <div>
          <Title order={1}>{r.vehicle.model.name}</Title>
          <Group gap="xs" mt={4}>
            <span className={`${classes.status} ${STATUS_CLASS[r.status] ?? ''}`}>{TRIP_STATUS_LABELS[r.status]}</span>
            <Text size="sm" c="dimmed">
              Trip ID {r.platform_id}
            </Text>
          </Group>
        </div>
        {canBookAgain(r) && (
          <Button component={Link} to={paths.search(bookAgainQuery(seed, r))}>
            Book Again
          </Button>
        )}
      </div>
      <CancelledNotice reservation={r} />
      {!canceled && hasOutstandingBalance(r.transactions) && (
        <Alert color="orange" title="Balance due">
          <Text size="sm">{formatTotal(pendingTotalCents(r))} is still to pay on this trip.</Text>
          <Anchor c="ampere.8" underline="always" component={Link} to={paths.trip.pay(id)} size="sm" fw={700}>
            Review &amp; Pay
          </Anchor>
        </Alert>
      )}
      {/* Spec 2: hidden for cancelled trips; an ended trip has nothing left to verify either. */}
      {!canceled && r.status !== 'Returned' && <TripVerificationCard reservation={r} user={user.data ?? null} />}
      <DigitalKeyBlock reservation={r} user={user.data ?? null} />
      {photo && (
        <img
          className={classes.photo}
          src={photo.image_url}
          alt={`${r.vehicle.year} ${r.vehicle.model.name}`}
          fetchPriority="high"
        />
      )}
      {/* Below the photo, taken over after the top of the page, in two parts (decision 066). */}
      <TripBelowThePhoto reservation={r} />
    </div>
  );
}
