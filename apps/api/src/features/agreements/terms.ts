import { INCLUDED_MILES_PER_DAY } from '@ampere/domain/constants';
import { formatTotal } from '@ampere/domain/money';

/**
 * The plain-language terms printed in each agreement. They state the product's rules (spec 9:
 * 200 miles a rental day, the $200.00 deposit hold, free cancellation until one day before
 * pickup) in words a renter can hold us to; a lawyer should review them before launch.
 */
export interface TermsContext {
  productName: string;
  rentalDays: number;
  depositCents: number;
  /** 'Nov 28, 2026, 10:00 AM CST' */
  freeCancellationUntil: string;
  supportEmail: string;
  supportPhone: string;
  /** Whether the trip has Collision Protection (the rental agreement's damage terms depend on it). */
  hasCollisionProtection: boolean;
  /** Daily price and total of the waiver, for its own terms. */
  waiverPerDay?: string;
  waiverTotal?: string;
}

export interface Clause {
  heading: string;
  text: string;
}

export function rentalTerms(t: TermsContext): Clause[] {
  const miles = (INCLUDED_MILES_PER_DAY * t.rentalDays).toLocaleString('en-US');
  return [
    {
      heading: 'Who and what this covers',
      text: `This agreement is between ${t.productName} ("we") and the renter named above ("you") for the vehicle and the period above. Only you may drive the vehicle, with a valid driver's license. It may not be used for hire, racing, towing, off-road driving or by anyone impaired by alcohol or drugs, and no one may smoke in it.`,
    },
    {
      heading: 'Mileage',
      text: `Your rental includes ${INCLUDED_MILES_PER_DAY} miles per rental day (${miles} miles for this trip) unless you added Unlimited Miles. Miles beyond that are charged as a mileage overage fee after the trip.`,
    },
    {
      heading: 'Charging',
      text: 'Return the vehicle with at least the battery charge it had at pickup. If it comes back with less, a recharge fee applies by how far below it is, unless you bought Prepaid Charging. Keep the charging adapter in the vehicle; a missing adapter is charged.',
    },
    {
      heading: 'Security deposit',
      text: `Before pickup we place a hold of ${formatTotal(t.depositCents)} on your card. It is not a charge: we release it after the trip, or capture part of it to settle fees, tolls, tickets or damage that you owe under this agreement.`,
    },
    {
      heading: 'Cancellation',
      text: `You may cancel free of charge until one day before pickup (${t.freeCancellationUntil}). After that, the rental charges are not refunded.`,
    },
    {
      heading: 'Damage and loss',
      text: t.hasCollisionProtection
        ? 'You bought Collision Protection for this trip: under its waiver, signed separately, you are not responsible for damage to or loss of the vehicle, except as that waiver excludes. Report any accident to us and to the police at once.'
        : 'You are responsible for damage to or loss of the vehicle during the rental, up to its value, together with its loss of use while it is repaired, unless you bought Collision Protection. Your own insurance may cover this. Report any accident to us and to the police at once.',
    },
    {
      heading: 'Tolls, tickets and return',
      text: 'You pay the tolls, parking and traffic tickets incurred during the trip, plus a ticket administration fee. Return the vehicle on time at the return place above; a late return is charged the daily rate for each day or part of a day it is late, plus a late fee.',
    },
    {
      heading: 'Electronic signature',
      text: `By typing your name below you sign this agreement electronically, with the same effect as a handwritten signature, and you agree to receive it electronically. A copy stays available from your trip. Questions: ${t.supportEmail}, ${t.supportPhone}.`,
    },
  ];
}

export function waiverTerms(t: TermsContext): Clause[] {
  return [
    {
      heading: 'What Collision Protection does',
      text: `For ${t.waiverPerDay} per rental day (${t.waiverTotal} for this trip, charged with your rental), ${t.productName} waives your responsibility for damage to or loss of the vehicle during the rental, including its loss of use and our administrative costs, with no deductible to pay.`,
    },
    {
      heading: 'What it does not cover',
      text: 'The waiver does not apply to damage caused while the vehicle is driven by someone other than you, by anyone impaired by alcohol or drugs, for hire, racing, towing or off-road, or on purpose. It does not cover injury to people, damage to other property or your belongings: your own insurance or liability coverage applies to those.',
    },
    {
      heading: 'Your part',
      text: `Report any accident, damage or theft to us and to the police within 24 hours, and cooperate with our claim. Contact: ${t.supportEmail}, ${t.supportPhone}.`,
    },
    {
      heading: 'It is optional',
      text: 'Collision Protection is optional: you do not need it to rent, and your own insurance or card benefits may already cover the vehicle. It is part of your rental agreement and ends when the rental does.',
    },
    {
      heading: 'Electronic signature',
      text: 'By typing your name below you accept this waiver electronically, with the same effect as a handwritten signature.',
    },
  ];
}
