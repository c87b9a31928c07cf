import { List, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
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
        When you buy Collision Protection, {productName} waives its right to charge you for physical damage to the rented vehicle
        during your trip, including the loss of use while it is repaired, towing, storage and administrative fees, as long as you
        follow the rental agreement.
      </p>
      <h2>2. What it does not cover</h2>
      <List>
        <List.Item>Damage caused deliberately, by driving under the influence of alcohol or drugs, or while racing or off-road.</List.Item>
        <List.Item>Damage when the car is driven by anyone not named on the rental agreement.</List.Item>
        <List.Item>Injury to people or damage to other property (third-party liability), and personal belongings.</List.Item>
        <List.Item>Tires, wheels, charging cables and adapters lost or damaged through negligence.</List.Item>
      </List>
      <h2>3. This is optional</h2>
      <p>
        Collision Protection is not insurance and you are not required to buy it. Your own auto insurance or credit card may already
        cover damage to a rented car; check with them before you decide.
      </p>
      <h2>4. Price</h2>
      <p>
        The waiver is charged per rental day{perDay ? ` at ${perDay}` : ''}, with the rest of the trip
        {total ? `, ${total} in total for this trip` : ''}. It cannot be removed once the trip has started.
      </p>
      <h2>5. Reporting damage</h2>
      <p>
        Report any accident or damage to us within 24 hours{supportEmail ? ` at ${supportEmail}` : ''}, and to the police where the
        law of {state ?? 'the state where it happened'} requires it.
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
      <Text c="dimmed" mt={4}>The terms between you and {productName} for every trip.</Text>
      <h2>1. The renter</h2>
      <p>You must be at least 18, hold a valid driver's license and carry auto insurance for the whole trip. Renters under 25 pay an underage fee.</p>
      <h2>2. Pickup and return</h2>
      <p>Pick the car up and return it at the times and places on your trip. Late returns are charged the daily rate and a late fee.</p>
      <h2>3. Mileage and charging</h2>
      <p>Each rental day includes 200 miles unless you added Unlimited Miles. Return the car with at least the charge it had at pickup, or buy Prepaid Charging.</p>
      <h2>4. Payment and deposit</h2>
      <p>
        The trip is charged to your card when you book. A refundable $200.00 security deposit is held on new reservations and released
        after the trip, less any charges the trip incurred (tolls, tickets, fees).
      </p>
      <h2>5. Cancellation</h2>
      <p>You can cancel for free until one day before pickup.</p>
      <h2>6. Use of the car</h2>
      <p>No smoking, no pets without a cleaning fee, no ride-hailing, racing or towing, and only the drivers named on the trip.</p>
    </article>
  );
}
