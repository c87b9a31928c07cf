import { Link, useLocation, useParams } from '../../../shared/router/react.tsx';
import { formatPrice, formatTotal } from '@ampere/domain/money';
import { mainPhoto } from '@ampere/domain/photos';
import { isNewReservation } from '@ampere/domain/booking';
import { paths, patterns } from '../../../shared/paths.ts';
import { useReservation } from './get-reservation.ts';
import { pendingTotalCents, signaturesMissing, tripTotalCents } from './booking-rules.ts';
import classes from './booking-navbar.module.css';

type StepKey = 'damage-waiver' | 'signature' | 'pay';
const STEPS: { key: StepKey; label: string }[] = [
  { key: 'damage-waiver', label: 'Waivers' },
  { key: 'signature', label: 'Signature' },
  { key: 'pay', label: 'Review & Pay' },
];

/**
 * The Booking navbar (spec 2): the car's picture, model, total price and daily rate, and a step
 * trail of the previous, current and next steps, each a link. Going to Review & Pay checks the
 * signatures first and goes to the signature page when one is missing. At 768 px or narrower
 * only Review & Pay shows.
 */
export function BookingNavbar() {
  const { id } = useParams(patterns.trip.detail);
  const { pathname } = useLocation();
  const reservation = useReservation(id).data;
  const current = STEPS.findIndex((s) => pathname.endsWith(`/${s.key}`));

  const target = (key: StepKey) => {
    if (key === 'damage-waiver') return paths.trip.damageWaiver(id);
    if (key === 'signature') return paths.trip.signature(id);
    return reservation && signaturesMissing(reservation) ? paths.trip.signature(id) : paths.trip.pay(id);
  };

  const photo = reservation ? mainPhoto(reservation.vehicle.images) : undefined;
  return (
    <div className={classes.bar}>
      <div className={classes.vehicle}>
        {photo ? (
          <img className={classes.photo} src={photo.image_url} alt="" />
        ) : (
          <span className={classes.photo} aria-hidden="true" />
        )}
        {reservation && (
          <div style={{ minWidth: 0 }}>
            <p className={classes.model}>{reservation.vehicle.model.name}</p>
            <p className={classes.price}>
              {/* A change of dates waiting for payment: what it adds, as Review & Pay totals it (decision 053). */}
              <span>
                {isNewReservation(reservation) || !reservation.requested_change
                  ? `${formatTotal(tripTotalCents(reservation))} total`
                  : `+${formatTotal(pendingTotalCents(reservation))} for the change`}
              </span>
              <span className={classes.dot} aria-hidden="true">
                ·
              </span>
              <span>{formatPrice(reservation.vehicle.rack_rate)}/day</span>
            </p>
          </div>
        )}
      </div>
      <ol className={classes.steps} aria-label="Booking steps">
        {STEPS.map((s, i) => {
          // Wide: the previous, current and next steps. Narrow: Review & Pay only (CSS).
          const inTrail = current === -1 || Math.abs(i - current) <= 1;
          if (!inTrail && s.key !== 'pay') return null;
          const firstInTrail = i === Math.max(0, current - 1);
          const className = [
            classes.step,
            s.key === 'pay' ? classes.pay : classes.notPay,
            inTrail ? '' : classes.outOfTrail,
          ].join(' ');
          return (
            <li key={s.key} className={className}>
              {inTrail && !firstInTrail && (
                <span className={classes.separator} aria-hidden="true">
                  ›
                </span>
              )}
              {i === current ? (
                <span className={classes.current} aria-current="step">
                  {s.label}
                </span>
              ) : (
                <Link
                  className={classes.stepLink}
                  to={target(s.key)}
                  // Review & Pay before signing: the signature page says that signing comes first.
                  state={s.key === 'pay' && target(s.key) !== paths.trip.pay(id) ? { signFirst: true } : undefined}
                >
                  {s.label}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
