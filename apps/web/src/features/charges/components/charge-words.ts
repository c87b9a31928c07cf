import type { RenterCharge } from '@ampere/domain/contract/charges';
import { endingIn } from '@ampere/domain/format';
import { formatTotal } from '@ampere/domain/money';

/**
 * Where a charge's money came from, in the receipt's words: 'Pulled from security deposit' for what
 * was taken from the deposit (spec 4), the card by its last four, what is still to pay, and what was
 * refunded ('Refund').
 */
export function moneyLines(c: RenterCharge): { label: string; amount: string }[] {
  return [
    c.fromDepositCents > 0 && { label: 'Pulled from security deposit', amount: formatTotal(c.fromDepositCents) },
    c.toCardCents > 0 && {
      label: c.cardLast4 ? `Charged to your card ${endingIn(c.cardLast4)}` : 'Charged to your card',
      amount: formatTotal(c.toCardCents),
    },
    c.owedCents > 0 && { label: 'Still to pay', amount: formatTotal(c.owedCents) },
    c.refundedCents > 0 && { label: 'Refund', amount: `−${formatTotal(c.refundedCents)}` },
  ].filter((l): l is { label: string; amount: string } => Boolean(l));
}
