import { DEPOSIT_REVIEW_HOURS } from './charges.ts';
import { PRODUCT_NAME, SECURITY_DEPOSIT_CENTS, UNPAID_HOLD_MINUTES } from './constants.ts';
import { addressLine, formatInstantInZone, formatTimeInZone } from './format.ts';
import { formatTotal } from './money.ts';
import { MS_PER_MINUTE, addDays, toInstant, toLocal } from './time.ts';
import type { Outstanding } from './verification.ts';

/**
 * The texts and emails a renter gets about a trip (issue 28 §4, decision 069): what each says, and
 * when it may be sent. Pure: the API records a message in the transaction of the event that causes
 * it and a job sends it.
 */

export const MESSAGE_KINDS = [
  'booking_confirmed',
  'pickup_tomorrow',
  'key_ready',
  'key_replaced',
  'trip_ended',
  'charge_made',
  'refund_made',
  'hold_lapsing',
  // A one-off text a staff member writes on the renter page (decision 095).
  'staff_text',
  'charge_posted',
  'dispute_decided',
  'deposit_settled',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/**
 * Why a message is sent. Every trip message is transactional: the renter needs it for a trip they
 * booked, so it goes out whatever they said about offers. Marketing needs the renter's consent.
 */
export type MessagePurpose = 'transactional' | 'marketing';

export const MESSAGE_PURPOSE: Record<MessageKind, MessagePurpose> = {
  booking_confirmed: 'transactional',
  pickup_tomorrow: 'transactional',
  key_ready: 'transactional',
  key_replaced: 'transactional',
  trip_ended: 'transactional',
  charge_made: 'transactional',
  refund_made: 'transactional',
  hold_lapsing: 'transactional',
  staff_text: 'transactional',
  charge_posted: 'transactional',
  dispute_decided: 'transactional',
  deposit_settled: 'transactional',
};

/** Rule: transactional messages go to every renter; marketing only to a renter who consented to it. */
export function mayMessage(purpose: MessagePurpose, marketingConsent: boolean): boolean {
  return purpose === 'transactional' || marketingConsent;
}

/** Quiet hours on the pickup location's clock: from 21:00 until 08:00 (decision 069). */
export const QUIET_HOURS = { start: '21:00', end: '08:00' } as const;

/** How long before an unpaid hold lapses its renter is told (the hold lasts UNPAID_HOLD_MINUTES). */
export const HOLD_WARNING_MINUTES = 10;

/** The day-before message goes out this long before pickup. */
export const PICKUP_REMINDER_HOURS = 24;

/** When an unpaid hold made at `createdAt` lapses. */
export function holdLapsesAt(createdAt: Date): Date {
  return new Date(createdAt.getTime() + UNPAID_HOLD_MINUTES * MS_PER_MINUTE);
}

/** Whether the local time `hh:mm` falls in the quiet hours. */
function isQuietTime(time: string): boolean {
  return time >= QUIET_HOURS.start || time < QUIET_HOURS.end;
}

/**
 * The end of the quiet hours `now` falls in, on the zone's clock, or null when `now` is not in
 * them. Reads the clock of the day the quiet hours end, so a night a DST change shortens or
 * lengthens still ends at 08:00 local.
 */
export function quietHoursEnd(now: Date, timeZone: string): Date | null {
  const local = toLocal(now, timeZone);
  if (!isQuietTime(local.time)) return null;
  const endDate = local.time >= QUIET_HOURS.start ? addDays(local.date, 1) : local.date;
  return toInstant({ date: endDate, time: QUIET_HOURS.end }, timeZone);
}

/**
 * Whether a message may interrupt the quiet hours. A hold about to lapse is (it lapses in minutes,
 * while the renter is at the checkout); a key ready is when the trip begins before the quiet hours
 * end (the renter needs it to open the car). Everything else waits.
 */
export function isUrgent(kind: MessageKind, ctx: { now: Date; pickupAt: Date; timeZone: string }): boolean {
  // The desk replaced the key: the renter may be at the car with a link that no longer opens it.
  // A staff member's text goes when they press Send: they chose the moment.
  if (kind === 'hold_lapsing' || kind === 'key_replaced' || kind === 'staff_text') return true;
  if (kind === 'key_ready') {
    const end = quietHoursEnd(ctx.now, ctx.timeZone);
    return end !== null && ctx.pickupAt.getTime() <= end.getTime();
  }
  return false;
}

/** Rule: when a message recorded at `now` may be sent — now, or at the end of the quiet hours on the location's clock. */
export function sendAfter(kind: MessageKind, ctx: { now: Date; pickupAt: Date; timeZone: string }): Date {
  if (isUrgent(kind, ctx)) return ctx.now;
  return quietHoursEnd(ctx.now, ctx.timeZone) ?? ctx.now;
}

/** What every message about a trip names. */
export interface TripFacts {
  platformId: string;
  firstName: string | null;
  model: string;
  pickupAt: Date;
  returnAt: Date;
  /** The pickup location's zone: every time is shown on its clock. */
  timeZone: string;
  place: { name: string; street: string; city: string; state: string; zip_code: string };
  /** Plain text of the location's pickup instructions. */
  pickupInstructions: string;
  /** The web app's address, without a trailing slash ('' gives relative links). */
  baseUrl: string;
}

export interface ComposedMessage {
  /** The text message. */
  sms: string;
  email: { subject: string; text: string };
}

export type MessageDetails =
  | { kind: 'booking_confirmed' }
  | { kind: 'pickup_tomorrow'; outstanding: readonly Outstanding[] }
  | { kind: 'key_ready' }
  | { kind: 'key_replaced' }
  | { kind: 'trip_ended'; feesCents: number; depositCents: number }
  | { kind: 'charge_made'; amountCents: number; description: string }
  | { kind: 'refund_made'; amountCents: number }
  | { kind: 'hold_lapsing'; lapsesAt: Date }
  /** A charge posted after the trip (decision 091): where its money comes from, and until when it can be disputed. */
  | {
      kind: 'charge_posted';
      chargeId: string;
      label: string;
      amountCents: number;
      paidFrom: 'deposit' | 'card' | 'owed';
      disputeUntil: Date;
    }
  | {
      kind: 'dispute_decided';
      chargeId: string;
      label: string;
      outcome: 'accepted' | 'rejected';
      refundCents: number;
      reason: string;
    }
  /** Staff settled the deposit: what was taken for charges, and what was released. */
  | { kind: 'deposit_settled'; capturedCents: number; releasedCents: number };

const OUTSTANDING_STEPS: Record<Outstanding, string> = {
  payment: 'Pay for the trip',
  license: "Verify your driver's license",
  insurance: 'Verify your insurance',
  deposit: `Secure the ${formatTotal(SECURITY_DEPOSIT_CENTS)} deposit`,
};

export function tripLink(facts: Pick<TripFacts, 'baseUrl' | 'platformId'>): string {
  return `${facts.baseUrl}/trip/${encodeURIComponent(facts.platformId)}`;
}

/** The renter's page of one charge after the trip, with its evidence and the dispute button. */
export function chargeLink(facts: Pick<TripFacts, 'baseUrl' | 'platformId'>, chargeId: string): string {
  return `${tripLink(facts)}/charges/${encodeURIComponent(chargeId)}`;
}

export function receiptLink(facts: Pick<TripFacts, 'baseUrl' | 'platformId'>): string {
  return `${tripLink(facts)}/receipt`;
}

/** Turns the location's instructions (HTML) into plain text for a message. */
export function plainText(html: string): string {
  return html
    .replace(/<\s*(br|\/p|\/li|\/div)[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}

function greeting(facts: TripFacts): string {
  return facts.firstName ? `Hi ${facts.firstName},` : 'Hi,';
}

function signOff(): string {
  return `— ${PRODUCT_NAME}`;
}

function email(facts: TripFacts, subject: string, lines: readonly string[]): ComposedMessage['email'] {
  return { subject, text: [greeting(facts), '', ...lines, '', signOff()].join('\n') };
}

/** The wording of each message (issue 28 §4); every time on the pickup location's clock, with its zone. */
export function composeMessage(facts: TripFacts, details: MessageDetails): ComposedMessage {
  const pickup = formatInstantInZone(facts.pickupAt, facts.timeZone);
  const ret = formatInstantInZone(facts.returnAt, facts.timeZone);
  const where = `${facts.place.name}, ${addressLine(facts.place)}`;
  const trip = tripLink(facts);
  const ref = `Trip ${facts.platformId}`;
  switch (details.kind) {
    case 'booking_confirmed':
      return {
        sms: `${PRODUCT_NAME}: your ${facts.model} is booked. Pickup ${pickup} at ${where}. Return ${ret}. ${trip}`,
        email: email(facts, `Booking confirmed: ${facts.model}, ${pickup}`, [
          `Your ${facts.model} is booked (${ref}).`,
          '',
          `Pickup: ${pickup}`,
          `Return: ${ret}`,
          `Place: ${where}`,
          '',
          `Your trip: ${trip}`,
        ]),
      };
    case 'pickup_tomorrow': {
      const steps = details.outstanding.map((o) => OUTSTANDING_STEPS[o]);
      const todo =
        steps.length > 0
          ? `Still to do before your key: ${steps.join('; ')}.`
          : 'You are all set: your key opens the car 30 minutes before pickup.';
      return {
        sms: `${PRODUCT_NAME}: pickup of your ${facts.model} is ${pickup} at ${where}. ${todo} ${trip}`,
        email: email(facts, `Pickup tomorrow: ${facts.model}, ${pickup}`, [
          `Your trip begins ${pickup} at ${where}.`,
          '',
          'Pickup instructions:',
          facts.pickupInstructions || 'Follow the directions on your trip page.',
          '',
          steps.length > 0 ? 'Still to do before your key:' : todo,
          ...steps.map((s) => `- ${s}`),
          '',
          `Your trip: ${trip}`,
        ]),
      };
    }
    case 'key_ready':
      return {
        sms: `${PRODUCT_NAME}: the key to your ${facts.model} is ready. Open it from your trip page from 30 minutes before pickup (${pickup}). ${trip}`,
        email: email(facts, `Your key is ready: ${facts.model}`, [
          `Everything is verified: the digital key to your ${facts.model} is ready (${ref}).`,
          `It opens the car from 30 minutes before pickup, ${pickup}, at ${where}.`,
          '',
          `Open your key from your trip: ${trip}`,
        ]),
      };
    case 'key_replaced':
      return {
        sms: `${PRODUCT_NAME}: we replaced the key to your ${facts.model}. The old key link no longer opens the car; open the new one from your trip page. ${trip}`,
        email: email(facts, `Your key was replaced: ${facts.model}`, [
          `We replaced the digital key to your ${facts.model} (${ref}).`,
          'The old key link no longer opens the car. Open the new key from your trip page:',
          trip,
        ]),
      };
    case 'trip_ended': {
      const fees =
        details.feesCents > 0 ? `Fees: ${formatTotal(details.feesCents)}.` : 'No fees were charged for the return.';
      const deposit =
        details.depositCents <= 0
          ? ''
          : details.feesCents >= details.depositCents
            ? `Your ${formatTotal(details.depositCents)} deposit went to the fees.`
            : details.feesCents > 0
              ? `From your ${formatTotal(details.depositCents)} deposit, the fees are taken and the rest is released within ${DEPOSIT_REVIEW_HOURS} hours, once the car is checked.`
              : `Your ${formatTotal(details.depositCents)} deposit is released within ${DEPOSIT_REVIEW_HOURS} hours, once the car is checked.`;
      const receipt = receiptLink(facts);
      return {
        sms: `${PRODUCT_NAME}: your trip in the ${facts.model} has ended. ${fees}${deposit ? ` ${deposit}` : ''} Receipt: ${receipt}`,
        email: email(facts, `Trip ended: ${facts.model}`, [
          `Your trip in the ${facts.model} has ended (${ref}). Thank you for driving with ${PRODUCT_NAME}.`,
          '',
          fees,
          ...(deposit ? [deposit] : []),
          '',
          `Your receipt: ${receipt}`,
        ]),
      };
    }
    case 'charge_made':
      return {
        sms: `${PRODUCT_NAME}: we charged ${formatTotal(details.amountCents)} to your card for ${details.description} (${ref}). ${receiptLink(facts)}`,
        email: email(facts, `A charge of ${formatTotal(details.amountCents)}: ${facts.model}`, [
          `We charged ${formatTotal(details.amountCents)} to your card for ${details.description} (${ref}).`,
          '',
          `Your receipt: ${receiptLink(facts)}`,
        ]),
      };
    case 'refund_made':
      return {
        sms: `${PRODUCT_NAME}: a refund of ${formatTotal(details.amountCents)} is on its way to your card (${ref}). It shows in 5–10 business days. ${trip}`,
        email: email(facts, `A refund of ${formatTotal(details.amountCents)}: ${facts.model}`, [
          `A refund of ${formatTotal(details.amountCents)} is on its way to your card (${ref}).`,
          'It shows on your statement in 5–10 business days.',
          '',
          `Your trip: ${trip}`,
        ]),
      };
    case 'charge_posted': {
      const link = chargeLink(facts, details.chargeId);
      const amount = formatTotal(details.amountCents);
      const how =
        details.paidFrom === 'deposit'
          ? 'It is taken from your deposit.'
          : details.paidFrom === 'card'
            ? 'It was charged to your card.'
            : 'Your card was declined: please pay it from the link.';
      const until = formatInstantInZone(details.disputeUntil, facts.timeZone);
      return {
        sms: `${PRODUCT_NAME}: a ${details.label} of ${amount} was added to your trip (${ref}). ${how} See the evidence or dispute it until ${until}: ${link}`,
        email: email(facts, `${details.label}: ${amount} (${ref})`, [
          `A ${details.label} of ${amount} was added to your trip in the ${facts.model} (${ref}).`,
          how,
          '',
          `See the charge and its evidence: ${link}`,
          `You can dispute it until ${until}; a disputed charge that was not yet taken waits for our decision.`,
        ]),
      };
    }
    case 'dispute_decided': {
      const link = chargeLink(facts, details.chargeId);
      const outcome =
        details.outcome === 'accepted'
          ? details.refundCents > 0
            ? `We accepted your dispute of the ${details.label}: ${formatTotal(details.refundCents)} is refunded to your card.`
            : `We accepted your dispute of the ${details.label}: it is dropped and nothing is charged.`
          : `We reviewed your dispute of the ${details.label} and the charge stands: ${details.reason}`;
      return {
        sms: `${PRODUCT_NAME}: ${outcome} (${ref}) ${link}`,
        email: email(facts, `Your dispute: ${details.label} (${ref})`, [outcome, '', `The charge: ${link}`]),
      };
    }
    case 'deposit_settled': {
      const released = formatTotal(details.releasedCents);
      const text =
        details.capturedCents > 0
          ? `${formatTotal(details.capturedCents)} of your deposit went to the charges on your trip${details.releasedCents > 0 ? ` and ${released} is released` : ''}.`
          : `Your deposit of ${released} is released.`;
      return {
        sms: `${PRODUCT_NAME}: ${text} (${ref}) Receipt: ${receiptLink(facts)}`,
        email: email(facts, `Your deposit: ${facts.model} (${ref})`, [
          text,
          'A released hold leaves your statement in a few business days.',
          '',
          `Your receipt: ${receiptLink(facts)}`,
        ]),
      };
    }
    case 'hold_lapsing': {
      const until = formatTimeInZone(details.lapsesAt, facts.timeZone);
      const pay = `${trip}/pay`;
      return {
        sms: `${PRODUCT_NAME}: your ${facts.model} for ${pickup} is held until ${until}. Pay by then to keep it: ${pay}`,
        email: email(facts, `Your ${facts.model} is held until ${until}`, [
          `We are holding your ${facts.model} for ${pickup} until ${until}.`,
          'Pay by then to keep it; after that the car is released to other renters.',
          '',
          `Pay now: ${pay}`,
        ]),
      };
    }
  }
}

/**
 * Rule: whether a message recorded earlier still applies when its time to send comes (the quiet
 * hours may have held it): a reminder or key for a trip since cancelled, or a hold already paid or
 * lapsed, is dropped. What happened (trip ended, money moved) is always told.
 */
export function stillApplies(kind: MessageKind, status: string): boolean {
  switch (kind) {
    case 'booking_confirmed':
    case 'key_ready':
    case 'key_replaced':
      return status === 'Pending' || status === 'On Rent';
    case 'pickup_tomorrow':
      return status === 'Pending';
    case 'hold_lapsing':
      return status === 'Started';
    default:
      return true;
  }
}
