import { type Kysely, type Migration, Migrator } from 'kysely';
import * as fleet from './migrations/0001-fleet.ts';
import * as accounts from './migrations/0002-accounts.ts';
import * as reservationChanges from './migrations/0003-reservation-changes.ts';
import * as booking from './migrations/0004-booking.ts';
import * as turnaround from './migrations/0005-turnaround.ts';
import * as moneyExact from './migrations/0006-money-exact.ts';
import * as twinOutbox from './migrations/0007-twin-outbox.ts';
import * as identity from './migrations/0008-identity.ts';
import * as insurance from './migrations/0009-insurance.ts';
import * as vehicleAccess from './migrations/0010-vehicle-access.ts';
import * as tripStatus from './migrations/0011-trip-status.ts';
import * as rides from './migrations/0012-rides.ts';
import * as tripChanges from './migrations/0013-trip-changes.ts';
import * as holdRenewal from './migrations/0014-hold-renewal.ts';
import * as receiptTokens from './migrations/0015-receipt-tokens.ts';
import * as morePhotoViews from './migrations/0016-more-photo-views.ts';
import * as rateLimits from './migrations/0017-rate-limits-and-socket-sessions.ts';
import * as lastDateChange from './migrations/0018-last-date-change.ts';
import * as couponClaims from './migrations/0019-coupon-claims.ts';
import * as cancelReason from './migrations/0020-cancel-reason.ts';
import * as unloggedRateLimits from './migrations/0021-unlogged-rate-limits.ts';
import * as tripMessages from './migrations/0022-trip-messages.ts';
import * as staffAndAuditLog from './migrations/0023-staff-and-audit-log.ts';
import * as fleetHolds from './migrations/0024-fleet-holds.ts';
import * as photosAndTheDay from './migrations/0025-photos-and-the-day.ts';
import * as staffSignIn from './migrations/0026-staff-sign-in.ts';
import * as inspections from './migrations/0027-inspections.ts';
import * as chargesAndDisputes from './migrations/0028-charges-and-disputes.ts';
import * as renterReview from './migrations/0029-renter-review.ts';
import * as supportNotes from './migrations/0030-support-notes.ts';
import * as offSessionCharges from './migrations/0031-off-session-charges.ts';
import type { Database } from './schema.ts';

/** Versioned migrations, in order. A new file gets the next number and is listed here. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-fleet': fleet,
  '0002-accounts': accounts,
  '0003-reservation-changes': reservationChanges,
  '0004-booking': booking,
  '0005-turnaround': turnaround,
  '0006-money-exact': moneyExact,
  '0007-twin-outbox': twinOutbox,
  '0008-identity': identity,
  '0009-insurance': insurance,
  '0010-vehicle-access': vehicleAccess,
  '0011-trip-status': tripStatus,
  '0012-rides': rides,
  '0013-trip-changes': tripChanges,
  '0014-hold-renewal': holdRenewal,
  '0015-receipt-tokens': receiptTokens,
  '0016-more-photo-views': morePhotoViews,
  '0017-rate-limits-and-socket-sessions': rateLimits,
  '0018-last-date-change': lastDateChange,
  '0019-coupon-claims': couponClaims,
  '0020-cancel-reason': cancelReason,
  '0021-unlogged-rate-limits': unloggedRateLimits,
  '0022-trip-messages': tripMessages,
  '0023-staff-and-audit-log': staffAndAuditLog,
  '0024-fleet-holds': fleetHolds,
  '0025-photos-and-the-day': photosAndTheDay,
  '0026-staff-sign-in': staffSignIn,
  '0027-inspections': inspections,
  '0028-charges-and-disputes': chargesAndDisputes,
  '0029-renter-review': renterReview,
  '0030-support-notes': supportNotes,
  '0031-off-session-charges': offSessionCharges,
};

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `Database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
