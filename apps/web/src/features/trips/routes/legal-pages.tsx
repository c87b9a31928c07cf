import { List, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from '../../../shared/router/react.tsx';
import {
  ADDON_LABELS,
  FREE_CANCELLATION_DAYS,
  INCLUDED_MILES_PER_DAY,
  SECURITY_DEPOSIT_CENTS,
  UNDERAGE_FEE_CENTS_PER_DAY,
  UNPAID_HOLD_MINUTES,
} from '@ampere/domain/constants';
import {
  CHARGING_MINIMUM,
  CHARGING_MINIMUM_PREPAID,
  LATE_FEE_CENTS,
  LATE_RETURN_GRACE_MINUTES,
  MILEAGE_OVERAGE_CENTS_PER_MILE,
  RECHARGE_BANDS,
} from '@ampere/domain/end-trip';
import { formatTotal } from '@ampere/domain/money';
import { paths } from '../../../shared/paths.ts';
import { useClientConfig } from '../../../shared/api/config.ts';
import classes from '../components/booking.module.css';
import { readDollars } from '../waiver-terms.ts';
import '../../../shared/ui/mantine-extra-styles.ts';

/**
 * /waiver-contract?state=…&price_per_day=…&total_price=… (public): the Collision Protection waiver
 * terms the renter signs, with the trip's state and prices filled in when given.
 */
export function WaiverContractPage() {
  const [params] = useSearchParams();
  const { productName, supportEmail } = useClientConfig();
  const state = /^[A-Za-z]{2}$/.test(params.get('state') ?? '') ? params.get('state')!.toUpperCase() : null;
  const perDay = readDollars(params.get('price_per_day'));
  const total = readDollars(params.get('total_price'));
  return (
    <article className={classes.legal}>
      <Title order={1}>Collision Protection Waiver</Title>
      <Text c="dimmed" mt={4}>
        {state ? `For trips starting in ${state}. ` : ''}
        {perDay ? `Price: ${perDay} per day` : ''}
        {perDay && total ? `, ${total} for this trip.` : perDay ? '.' : ''}
      </Text>
      <h2>1. What this waiver does</h2>
      <p>
        When you buy Collision Protection, {productName} waives its right to charge you for physical damage to the
        rented vehicle during your trip, including the loss of use while it is repaired, towing, storage and
        administrative fees, as long as you follow the rental agreement.
      </p>
      <h2>2. What it does not cover</h2>
      <List>
        <List.Item>
          Damage caused deliberately, by driving under the influence of alcohol or drugs, or while racing or off-road.
        </List.Item>
        <List.Item>Damage when the car is driven by anyone not named on the rental agreement.</List.Item>
        <List.Item>
          Injury to people or damage to other property (third-party liability), and personal belongings.
        </List.Item>
        <List.Item>Tires, wheels, charging cables and adapters lost or damaged through negligence.</List.Item>
      </List>
      <h2>3. This is optional</h2>
      <p>
        Collision Protection is not insurance and you are not required to buy it. Your own auto insurance or credit card
        may already cover damage to a rented car; check with them before you decide.
      </p>
      <h2>4. Price</h2>
      <p>
        The waiver is charged per rental day{perDay ? ` at ${perDay}` : ''}, with the rest of the trip
        {total ? `, ${total} in total for this trip` : ''}. It cannot be removed once the trip has started.
      </p>
      <h2>5. Reporting damage</h2>
      <p>
        Report any accident or damage to us within 24 hours{supportEmail ? ` at ${supportEmail}` : ''}, and to the
        police where the law of {state ?? 'the state where it happened'} requires it.
      </p>
    </article>
  );
}

/** /rental-agreement (public): the rental agreement terms the renter signs on the signature page. */
export function RentalAgreementPage() {
  const { productName } = useClientConfig();
  return (
    <article className={classes.legal}>
      <Title order={1}>Rental Agreement</Title>
      <Text c="dimmed" mt={4}>
        The terms between you and {productName} for every trip.
      </Text>
      <h2>1. The renter</h2>
      <p>
        You must be at least 18, hold a valid driver's license and carry auto insurance for the whole trip. Renters
        under 25 pay an underage fee.
      </p>
      <h2>2. Pickup and return</h2>
      <p>
        Pick the car up and return it at the times and places on your trip. Late returns are charged the daily rate and
        a late fee.
      </p>
      <h2>3. Mileage and charging</h2>
      <p>
        Each rental day includes 200 miles unless you added Unlimited Miles. Return the car with at least the charge it
        had at pickup, or buy Prepaid Charging.
      </p>
      <h2>4. Payment and deposit</h2>
      <p>
        The trip is charged to your card when you book. A refundable $200.00 security deposit is held on new
        reservations and released after the trip, less any charges the trip incurred (tolls, tickets, fees).
      </p>
      <h2>5. Cancellation</h2>
      <p>You can cancel for free until one day before pickup.</p>
      <h2>6. Use of the car</h2>
      <p>
        No smoking, no pets without a cleaning fee, no ride-hailing, racing or towing, and only the drivers named on the
        trip.
      </p>
    </article>
  );
}

/**
 * /policies (public): the policies a trip's charges follow, opened in a new tab by the receipts'
 * Policies button (decision 031). Every amount is the domain's constant the API charges by.
 */
export function PoliciesPage() {
  const { productName, supportEmail, supportPhone } = useClientConfig();
  const bands = RECHARGE_BANDS.map((b) => `${formatTotal(b.cents)} at ${b.from}–${b.to}%`).join(', ');
  return (
    <article className={classes.legal}>
      <Title order={1}>Policies</Title>
      <Text c="dimmed" mt={4}>
        How {productName} charges, holds and refunds, as your receipts show it.
      </Text>
      <h2>Payment and security deposit</h2>
      <p>
        Your trip is charged to your card when you book. New reservations also place a{' '}
        {formatTotal(SECURITY_DEPOSIT_CENTS)} hold on the card: it is not a charge. After the trip the hold is released,
        or part of it is captured to pay the return's fees and the rest released at the same time.
      </p>
      <h2>Cancellation and refunds</h2>
      <p>
        You can cancel free of charge until{' '}
        {FREE_CANCELLATION_DAYS === 1 ? 'one day' : `${FREE_CANCELLATION_DAYS} days`} before pickup, on the pickup
        place's clock: everything you paid is refunded to your card and the deposit hold is released. An unpaid booking
        holds its car for {UNPAID_HOLD_MINUTES} minutes.
      </p>
      <h2>Mileage</h2>
      <p>
        Each rental day includes {INCLUDED_MILES_PER_DAY} miles. Miles beyond that cost{' '}
        {formatTotal(MILEAGE_OVERAGE_CENTS_PER_MILE)} a mile, unless you added {ADDON_LABELS.UNLIMITED_MILES}.
      </p>
      <h2>Charging</h2>
      <p>
        Bring the car back with at least {Math.round(CHARGING_MINIMUM * 100)}% battery (
        {Math.round(CHARGING_MINIMUM_PREPAID * 100)}% with {ADDON_LABELS.PREPAID_EV_CHARGING}), or a recharge fee
        applies by the level it comes back at: {bands}.
      </p>
      <h2>Late returns</h2>
      <p>
        After a {LATE_RETURN_GRACE_MINUTES}-minute grace, a late return costs a {formatTotal(LATE_FEE_CENTS)} late fee
        and the daily rate for each started day late.
      </p>
      <h2>Drivers under 25</h2>
      <p>Renters under 25 at pickup pay an underage fee of {formatTotal(UNDERAGE_FEE_CENTS_PER_DAY)} a rental day.</p>
      <h2>Damage</h2>
      <p>
        You are responsible for damage to the car unless you bought {ADDON_LABELS.DAMAGE_WAIVER}; see the{' '}
        <Link to={paths.waiverContract()}>waiver's terms</Link> and the{' '}
        <Link to={paths.rentalAgreement()}>Rental Agreement</Link>.
      </p>
      <h2>Reading your receipt</h2>
      <List>
        <List.Item>
          <strong>Payment</strong>: a charge to your card.
        </List.Item>
        <List.Item>
          <strong>Refund</strong>: a charge given back to your card.
        </List.Item>
        <List.Item>
          <strong>Authorization</strong>: the deposit hold placed on your card.
        </List.Item>
        <List.Item>
          <strong>Released</strong>: the hold let go, nothing taken.
        </List.Item>
        <List.Item>
          <strong>Partially Captured</strong>: part of the hold taken for the return's fees, the rest released. The
          deposit's card tells it in one line: what was held, what was kept and for which fees, and what was released
          and when.
        </List.Item>
        <List.Item>
          <strong>Pulled from security deposit</strong>: beside each fee on the deposit's card, the fees that part paid
          for.
        </List.Item>
      </List>
      <h2>Questions</h2>
      <p>{[supportEmail, supportPhone].filter(Boolean).join(' · ') || 'Contact us through the app.'}</p>
    </article>
  );
}
