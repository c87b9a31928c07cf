import { Anchor, Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from '../../../shared/router/react.tsx';
import { formatPrice, formatTotal } from '@ampere/domain/money';
import { addonTotal } from '@ampere/domain/line-items';
import { rentalDaysBetween } from '@ampere/domain/rental';
import { paths, patterns } from '../../../shared/paths.ts';
import { track } from '../../../shared/analytics.ts';
import { reservationKeys, useReservation } from '../public/get-reservation.ts';
import { relatedAddonsQueryOptions } from '../api/get-related-addons.ts';
import { updateReservationAddons } from '../api/update-reservation-addons.ts';
import { damageWaiverPending, damageWaiverRoute, pendingAddonIds } from '../public/booking-rules.ts';
import classes from '../components/booking.module.css';
import { holdSecrets } from '../payment-secret-store.ts';
import { waiverPrices } from '../waiver-terms.ts';

export const WAIVER_COUNT_ERROR = 'Expected exactly one damage waiver addon';

const Figure = ({ children }: { children: string }) => <strong className={classes.riskFigure}>{children}</strong>;

/** The model the spec's replacement figure is for. */
const FIGURE_MODEL = 'Model Y';

/**
 * Spec 2: four risk cards with the fixed figures '$2,070/mo potential loss' and '$31,490 for a
 * Model Y'. The figure is the spec's, for a Model Y: said as such when that is the car being
 * rented, and as an example for any other, so no renter reads it as the price of their own car.
 */
function risks(modelName: string | null): { title: string; body: ReactNode }[] {
  const isFigureModel = modelName !== null && (modelName === FIGURE_MODEL || modelName.startsWith(`${FIGURE_MODEL} `));
  return [
    {
      title: 'Lost revenue',
      body: (
        <>
          While a damaged car is in the shop it can't be rented, and that lost time is billed to the renter:{' '}
          <Figure>$2,070/mo potential loss</Figure>.
        </>
      ),
    },
    {
      title: 'Uninsured driver',
      body: 'If the other driver has no insurance, or too little, the cost of repairing our car can fall to you.',
    },
    {
      title: 'Additional costs',
      body: isFigureModel ? (
        <>
          Towing, storage, appraisal and fees come on top of the repair, and replacing this car outright runs{' '}
          <Figure>$31,490 for a Model Y</Figure>.
        </>
      ) : (
        <>
          Towing, storage, appraisal and fees come on top of the repair, and replacing a car outright is costly: for
          example, <Figure>$31,490 for a Model Y</Figure>.
        </>
      ),
    },
    {
      title: 'Insurance impact',
      body: 'A claim on your own policy means paying its deductible now and can raise your premium for years to come.',
    },
  ];
}

/**
 * /trip/:id/damage-waiver, 'Add Collision Protection?' (spec 2 and 4). Only for a Started or
 * Pending trip without the waiver; both choices lead to the signature page.
 */
export function DamageWaiverPage() {
  const { id } = useParams(patterns.trip.damageWaiver);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const reservation = useReservation(id);
  const r = reservation.data;
  const addons = useQuery({
    ...relatedAddonsQueryOptions({
      vehicleVin: r?.vehicle.vin ?? '',
      pickupAt: r?.pickup_at ?? '',
      returnAt: r?.return_at ?? '',
    }),
    enabled: !!r,
  });
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Once the renter chose, this page no longer redirects on its own.
  const chosen = useRef(false);

  const waivers = (addons.data ?? []).filter((a) => a.type === 'DAMAGE_WAIVER');
  const waiver = waivers.length === 1 ? waivers[0]! : null;

  useEffect(() => {
    if (chosen.current) return;
    if (reservation.error) {
      // Spec 8: a damage-waiver load failure is logged and goes to the trip page.
      console.error('damage-waiver: the trip could not be loaded', reservation.error);
      void navigate(paths.trip.detail(id), { replace: true });
    } else if (r && damageWaiverRoute(r) === 'trip') {
      void navigate(paths.trip.detail(id), { replace: true });
    } else if (r && damageWaiverRoute(r) === 'signature') {
      void navigate(paths.trip.signature(id), { replace: true });
    } else if (addons.error) {
      console.error('damage-waiver: the add-ons could not be loaded', addons.error);
      void navigate(paths.trip.detail(id), { replace: true });
    } else if (addons.data && waivers.length !== 1) {
      console.error(`damage-waiver: ${WAIVER_COUNT_ERROR} (found ${waivers.length})`);
      void navigate(paths.trip.detail(id), { replace: true, state: { notice: WAIVER_COUNT_ERROR } });
    }
  }, [reservation.error, r, addons.error, addons.data, waivers.length, id, navigate]);

  if (!r || !waiver || (damageWaiverRoute(r) !== 'page' && !chosen.current)) {
    return (
      <Center py={80}>
        <Loader aria-label="Loading collision protection" />
      </Center>
    );
  }

  const days = rentalDaysBetween(new Date(r.pickup_at), new Date(r.return_at), r.timezone);
  const priced = { amount: waiver.amount, frequency: waiver.charge_frequency };
  const totalCents = addonTotal(priced, days);
  const contract = paths.waiverContract({ state: r.pickup_location.state, ...waiverPrices(priced, days) });

  const cover = async () => {
    setSaving(true);
    setError(null);
    chosen.current = true;
    try {
      const answer = await updateReservationAddons(id, [
        ...pendingAddonIds(r).filter((a) => a !== waiver.id),
        waiver.id,
      ]);
      queryClient.setQueryData(reservationKeys.detail(id), answer.reservation);
      holdSecrets(id, answer.stripe);
      track('damage_waiver_accepted', {
        platform_id: id,
        addon_id: waiver.id,
        price_per_day: waiver.amount,
        total: totalCents,
      });
      void navigate(paths.trip.signature(id));
    } catch (err) {
      console.error('damage-waiver: adding collision protection failed', err);
      chosen.current = false;
      setError("We couldn't add Collision Protection. Please try again.");
      setSaving(false);
    }
  };

  const decline = () => {
    chosen.current = true;
    // Spec 4: skipping the waiver logs a decline unless it is already a pending add-on.
    if (!damageWaiverPending(r)) track('damage_waiver_declined', { platform_id: id, addon_id: waiver.id });
    void navigate(paths.trip.signature(id));
  };

  return (
    <Stack className={classes.page} gap="lg">
      <div>
        <Title order={1}>Add Collision Protection?</Title>
        <Text mt={6} c="dimmed">
          Without it, you are responsible for any damage to the car during your trip. Here is what that can mean.
        </Text>
      </div>
      <div className={classes.risks}>
        {risks(r.vehicle.model.name).map((risk, i) => (
          <section key={risk.title} className={classes.risk} aria-labelledby={`risk-${i}`}>
            <Title order={2} size="h4" id={`risk-${i}`}>
              {risk.title}
            </Title>
            <Text size="sm" mt={4}>
              {risk.body}
            </Text>
          </section>
        ))}
      </div>
      <div className={classes.priceBox}>
        <Text fw={700} size="lg">
          {formatPrice(waiver.amount)}
          {waiver.charge_frequency === 'DAY' ? '/day' : ' one-time'}
        </Text>
        <Text size="sm">
          {formatTotal(totalCents)} for your {days}-day trip. {waiver.description}
        </Text>
        <Anchor
          c="ampere.8"
          underline="always"
          href={contract}
          target="_blank"
          rel="noopener"
          size="sm"
          mt={6}
          display="inline-block"
        >
          Read the Collision Protection waiver (opens in a new tab)
        </Anchor>
      </div>
      {error && (
        <Text role="alert" c="red.9" size="sm">
          {error}
        </Text>
      )}
      {/* On a phone the two choices stay at the foot of the screen while the risks scroll by. */}
      <div className={`${classes.actions} ${classes.choiceBar}`}>
        <Button className={classes.choiceBack} variant="default" onClick={() => void navigate(-1)} disabled={saving}>
          Back
        </Button>
        <div className={classes.actionsMain}>
          <Button className={classes.choiceDecline} variant="outline" onClick={decline} disabled={saving}>
            No, I'll cover damages
          </Button>
          <Button className={classes.choiceCover} onClick={() => void cover()} loading={saving}>
            Cover Trip
          </Button>
        </div>
      </div>
    </Stack>
  );
}
