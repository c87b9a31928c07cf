/**
 * Development-only fault injection (CRASH_AT, refused in production): the process kills itself
 * with SIGKILL at one named point, so that a test can stop it exactly where a power cut or an
 * out-of-memory kill would hurt most, then start it again on the same database and check what
 * survived (docs/decisions/040-crash-safety.md). SIGKILL, not an exception: no handler, no
 * `finally`, no rollback statement runs; the database sees a connection drop.
 */
export const CRASH_POINTS = [
  /** Booking: the reservation row is written, its line items are not, the transaction is open. */
  'booking-before-line-items',
  /** Paying: the provider made the payment intent; our payment row does not know its id yet. */
  'payment-after-intent-created',
  /** The renter's "I have paid": the provider took the money; our ledger rows are written but not committed. */
  'payment-sync-before-commit',
  /** A provider webhook: the event is recorded and applied, not committed. */
  'webhook-before-commit',
  /** A provider webhook: applied and committed, the provider not yet answered (it retries). */
  'webhook-after-commit',
  /** A card charge after the trip: the charge committed, its payment row not yet written. */
  'charge-before-payment-row',
  /** A card charge after the trip: its payment row and links committed, the provider not yet asked. */
  'charge-after-payment-row',
  /** A card charge after the trip: the provider made the intent; our payment row does not know its id yet. */
  'charge-after-intent-created',
  /** A card charge after the trip: our row knows the intent, which is not yet confirmed. */
  'charge-before-confirm',
  /** A card charge after the trip: the provider took the money; our ledger does not know yet. */
  'charge-after-confirm',
] as const;

export type CrashPoint = (typeof CRASH_POINTS)[number];

/**
 * The points outside any transaction, where stopping the caller with an exception leaves the
 * database exactly as the process dying would: an in-process test may arm them to throw (the
 * embedded database lives in the test's own process, which must not be killed).
 */
const BETWEEN_TRANSACTIONS: readonly CrashPoint[] = [
  'payment-after-intent-created',
  'webhook-after-commit',
  'charge-before-payment-row',
  'charge-after-payment-row',
  'charge-after-intent-created',
  'charge-before-confirm',
  'charge-after-confirm',
];

/** What an in-process test's armed point throws in place of dying. */
export class CrashedHere extends Error {
  constructor(readonly point: CrashPoint) {
    super(`The process would have died here (${point}).`);
  }
}

let armed: { point: CrashPoint; how: 'kill' | 'throw' } | undefined;

/**
 * Sets the point this process dies at (from CRASH_AT at start-up); undefined disarms. 'throw' (for
 * in-process tests, and only at a point between transactions) throws CrashedHere there instead.
 */
export function armCrash(point: CrashPoint | undefined, how: 'kill' | 'throw' = 'kill'): void {
  if (point && how === 'throw' && !BETWEEN_TRANSACTIONS.includes(point))
    throw new Error(`${point} is inside a transaction: only a killed process shows what it leaves.`);
  armed = point ? { point, how } : undefined;
}

/** Dies here, at once, if this is the armed point; otherwise does nothing. */
export function crashPoint(point: CrashPoint): void {
  if (armed?.point !== point) return;
  if (armed.how === 'throw') throw new CrashedHere(point);
  process.kill(process.pid, 'SIGKILL');
}
