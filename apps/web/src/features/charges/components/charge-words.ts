import { chargeLines } from '@ampere/domain/charges';
import type { RenterCharge } from '@ampere/domain/contract/charges';

/**
 * Where a charge's money stands, in the receipt's words (the domain's `chargeLines`): what is on the
 * deposit hold, to be taken from it; what was pulled from the security deposit; the card by its last
 * four; what is still to pay (only what waits on the card); and what was refunded ('Refund').
 */
export function moneyLines(c: RenterCharge): { label: string; amount: string }[] {
  return chargeLines(c).map(({ label, amount }) => ({ label, amount }));
}
