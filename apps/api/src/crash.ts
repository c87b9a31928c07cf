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
] as const;

export type CrashPoint = (typeof CRASH_POINTS)[number];

let armed: CrashPoint | undefined;

/** Sets the point this process dies at (from CRASH_AT at start-up); undefined disarms. */
export function armCrash(point: CrashPoint | undefined): void {
  armed = point;
}

/** Dies here, at once, if this is the armed point; otherwise does nothing. */
export function crashPoint(point: CrashPoint): void {
  if (armed === point) process.kill(process.pid, 'SIGKILL');
}
