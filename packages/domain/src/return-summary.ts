import { feeRank, isWaivedFee } from './end-trip.ts';
import { depositHoldPlaced } from './receipt.ts';

/**
 * What ending a trip did, read back from the trip's own rows (decision 054): each fee of the return
 * and where its money came from, what the deposit hold kept and released, and what is left to pay.
 * The summary after End Trip is drawn from this, never from the preview shown before it, so it
 * says what happened rather than what was expected.
 */

export interface SummaryTransaction {
  category: string;
  status: string;
  description: string;
  amount: number;
  captured_amount: number;
  discount_amount: number;
  initiated_at: string;
  released_at: string | null;
  card_last_4: string | null;
  stripe_payment_intent_id?: string | null;
  stripe_reserve_applied_payment_intent_id: string | null;
}

export type FeeSource = 'deposit' | 'card' | 'due' | 'waived';

export interface ReturnFeeTaken {
  description: string;
  /** Cents, net of any discount. */
  amount: number;
  /** Kept from the deposit hold, paid by card, still to pay, or waived (below the minimum card charge). */
  source: FeeSource;
  /** Cents written off (decision 056); 0 unless the source is 'waived'. */
  waived: number;
  /** When the money was taken (ISO); null while it is not taken yet. */
  takenAt: string | null;
  cardLast4: string | null;
}

export interface DepositOutcome {
  held: number;
  /** Kept for fees (a partial capture). */
  kept: number;
  released: number;
  /** When the hold was captured or released (ISO); null while it is still held. */
  settledAt: string | null;
  cardLast4: string | null;
}

export interface ReturnSummary {
  fees: ReturnFeeTaken[];
  /** All the return's fees, in cents. */
  total: number;
  /** The deposit hold as it stands; null when the trip had none. */
  deposit: DepositOutcome | null;
  /** Fees still to pay by card. */
  due: number;
  /** Fees waived as below the minimum card charge. */
  waived: number;
}

const LIVE_FEE = new Set(['Pending', 'Successful', 'Captured']);

/** The return's fees (Incidental rows), where each came from, the deposit's outcome and the balance left. */
export function returnSummary(transactions: readonly SummaryTransaction[]): ReturnSummary {
  const depositRow = transactions.filter((t) => t.category === 'Deposit').at(-1);
  const deposit = depositRow ? depositOutcome(depositRow) : null;
  const fees = transactions
    .filter((t) => t.category === 'Incidental' && LIVE_FEE.has(t.status))
    // In the order the return charges them, whatever order the rows were read in; of a fee split
    // across the hold and the card, the deposit's part first, as it was taken.
    .map((t, i) => ({ t, i, rank: feeRank(t.description), card: t.stripe_reserve_applied_payment_intent_id ? 0 : 1 }))
    .sort((a, b) => a.rank - b.rank || a.card - b.card || a.i - b.i)
    .map(({ t }) => t)
    .map((t): ReturnFeeTaken => {
      const amount = t.amount - t.discount_amount;
      const paid = t.status !== 'Pending';
      if (isWaivedFee(t))
        return {
          description: t.description,
          amount,
          source: 'waived',
          takenAt: null,
          cardLast4: null,
          waived: t.amount,
        };
      if (t.stripe_reserve_applied_payment_intent_id)
        return {
          description: t.description,
          amount,
          source: 'deposit',
          takenAt: paid ? (deposit?.settledAt ?? t.initiated_at) : null,
          cardLast4: deposit?.cardLast4 ?? null,
          waived: 0,
        };
      return {
        description: t.description,
        amount,
        source: paid ? 'card' : 'due',
        takenAt: null,
        cardLast4: paid ? t.card_last_4 : null,
        waived: 0,
      };
    });
  return {
    fees,
    total: fees.reduce((sum, f) => sum + f.amount, 0),
    deposit,
    due: fees.filter((f) => f.source === 'due').reduce((sum, f) => sum + f.amount, 0),
    waived: fees.reduce((sum, f) => sum + f.waived, 0),
  };
}

function depositOutcome(t: SummaryTransaction): DepositOutcome | null {
  if (!depositHoldPlaced(t)) return null;
  const settled = t.status === 'Captured' || t.status === 'Canceled';
  const kept = t.status === 'Captured' ? t.captured_amount : 0;
  return {
    held: t.amount,
    kept,
    released: settled ? t.amount - kept : 0,
    settledAt: settled ? (t.released_at ?? null) : null,
    cardLast4: t.card_last_4,
  };
}

/**
 * The return a trip page shows: for a Returned trip, when the car actually came back (its ride's
 * return), with the booked return kept when it was another minute; otherwise the booked return.
 */
export function shownReturn(r: {
  status: string;
  return_at: string;
  rides: readonly { vehicle_return_at: string | null }[];
}): { at: string; returned: boolean; booked: string | null } {
  const back = r.status === 'Returned' ? r.rides.find((ride) => ride.vehicle_return_at)?.vehicle_return_at : null;
  if (!back) return { at: r.return_at, returned: false, booked: null };
  const sameMinute = Math.floor(Date.parse(back) / 60_000) === Math.floor(Date.parse(r.return_at) / 60_000);
  return { at: back, returned: true, booked: sameMinute ? null : r.return_at };
}
