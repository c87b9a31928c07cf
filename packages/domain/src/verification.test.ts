import { describe, expect, it } from 'vitest';
import type { TransactionLike } from './booking.ts';
import {
  accessKeyDisabled,
  insuranceBadgeStatus,
  insuranceVerificationRequired,
  keyIssuable,
  keyRefusal,
  keyWindow,
  licenseVerificationRequired,
  licenseVerificationStatus,
  outstandingForKey,
  securityDepositRequired,
  type VerificationInputs,
} from './verification.ts';

const CHICAGO = 'America/Chicago';
// A trip returning at 10:00 on 2027-01-15 in Chicago (16:00 UTC); in UTC it is the same day.
const trip = { pickup_at: '2027-01-08T16:00:00Z', return_at: '2027-01-15T16:00:00Z', timezone: CHICAGO };
const approved = { license_number: 'D1234567', license_expiration: '2030-06-30', license_status: 'approved' };
const heldDeposit: TransactionLike = {
  category: 'Deposit',
  status: 'Pending',
  amount: 20_000,
  discount_amount: 0,
  effective_date: '2027-01-08',
  card_last_4: '4242',
};
const unheldDeposit: TransactionLike = { ...heldDeposit, card_last_4: null };

function inputs(
  over: Partial<{
    status: VerificationInputs['reservation']['status'];
    user: VerificationInputs['user'];
    insurance: { status: string }[];
    transactions: TransactionLike[];
  }> = {},
): VerificationInputs {
  return {
    reservation: { ...trip, status: over.status ?? 'Pending', transactions: over.transactions ?? [heldDeposit] },
    user: 'user' in over ? over.user : approved,
    insurance: over.insurance ?? [{ status: 'ACTIVE' }],
  };
}

describe('license verification status', () => {
  it('rule: null means required', () => {
    expect(licenseVerificationStatus({ license_status: null })).toBe('required');
    expect(licenseVerificationStatus(null)).toBe('required');
  });
  it('rule: approved means verified', () => {
    expect(licenseVerificationStatus({ license_status: 'approved' })).toBe('verified');
  });
  it('rule: anything else is shown as failed', () => {
    for (const s of ['declined', 'resubmission', 'expired', 'something new'])
      expect(licenseVerificationStatus({ license_status: s })).toBe('failed');
  });
});

describe('license verification required', () => {
  it('rule: when the user is missing', () => {
    expect(licenseVerificationRequired(null, trip)).toBe(true);
  });
  it('rule: when there is no license number', () => {
    expect(licenseVerificationRequired({ ...approved, license_number: null }, trip)).toBe(true);
  });
  it('rule: when the status is not approved', () => {
    expect(licenseVerificationRequired({ ...approved, license_status: 'declined' }, trip)).toBe(true);
    expect(licenseVerificationRequired({ ...approved, license_status: null }, trip)).toBe(true);
  });
  it('rule: when the license expires before the return date', () => {
    expect(licenseVerificationRequired({ ...approved, license_expiration: '2027-01-14' }, trip)).toBe(true);
  });
  it('a license that expires on the return date itself still covers the trip', () => {
    expect(licenseVerificationRequired({ ...approved, license_expiration: '2027-01-15' }, trip)).toBe(false);
  });
  it('the return date is read in the trip’s own zone, not UTC', () => {
    // 23:30 on the 15th in Chicago is already the 16th in UTC: a license valid through the 15th covers it.
    const late = { ...trip, return_at: '2027-01-16T05:30:00Z' };
    expect(licenseVerificationRequired({ ...approved, license_expiration: '2027-01-15' }, late)).toBe(false);
  });
  it('otherwise not required', () => {
    expect(licenseVerificationRequired(approved, trip)).toBe(false);
    expect(licenseVerificationRequired(approved, null)).toBe(false);
  });
});

describe('insurance verification required', () => {
  it('rule: required unless at least one verification is ACTIVE or WAIVED', () => {
    expect(insuranceVerificationRequired([])).toBe(true);
    expect(insuranceVerificationRequired([{ status: 'PENDING' }, { status: 'CREDENTIALS_EXPIRED' }])).toBe(true);
    expect(insuranceVerificationRequired([{ status: 'PENDING' }, { status: 'ACTIVE' }])).toBe(false);
    expect(insuranceVerificationRequired([{ status: 'WAIVED' }])).toBe(false);
  });
  it('shows each insurance state with the badge vocabulary', () => {
    expect(insuranceBadgeStatus('ACTIVE')).toBe('active');
    expect(insuranceBadgeStatus('WAIVED')).toBe('waived');
    expect(insuranceBadgeStatus('PENDING')).toBe('pending');
    expect(insuranceBadgeStatus('MFA_EXPIRED')).toBe('expired');
    expect(insuranceBadgeStatus('ACCOUNT_DISABLED')).toBe('disabled');
    expect(insuranceBadgeStatus('ACCOUNT_INACCESSIBLE')).toBe('inaccessible');
  });
});

describe('security deposit required', () => {
  it('rule: required when no pending Deposit transaction holds it', () => {
    expect(securityDepositRequired([])).toBe(true);
    expect(securityDepositRequired([unheldDeposit])).toBe(true);
    expect(securityDepositRequired([heldDeposit])).toBe(false);
  });
});

describe('Access Key and the digital key', () => {
  it('rule: Access Key is disabled when the status is Started', () => {
    expect(accessKeyDisabled(inputs({ status: 'Started' }))).toBe(true);
    expect(outstandingForKey(inputs({ status: 'Started' }))).toEqual(['payment']);
  });
  it('rule: disabled while the license is outstanding', () => {
    expect(accessKeyDisabled(inputs({ user: { ...approved, license_status: null } }))).toBe(true);
    expect(outstandingForKey(inputs({ user: null }))).toEqual(['license']);
  });
  it('rule: disabled while insurance is outstanding', () => {
    expect(accessKeyDisabled(inputs({ insurance: [{ status: 'PENDING' }] }))).toBe(true);
    expect(outstandingForKey(inputs({ insurance: [] }))).toEqual(['insurance']);
  });
  it('rule: disabled while the deposit is outstanding', () => {
    expect(accessKeyDisabled(inputs({ transactions: [unheldDeposit] }))).toBe(true);
    expect(outstandingForKey(inputs({ transactions: [] }))).toEqual(['deposit']);
  });
  it('lists everything outstanding, in the order the trip page asks for it', () => {
    expect(outstandingForKey(inputs({ status: 'Started', user: null, insurance: [], transactions: [] }))).toEqual([
      'payment',
      'license',
      'insurance',
      'deposit',
    ]);
  });
  it('rule: the digital key requires identity and insurance verification', () => {
    expect(keyIssuable(inputs())).toBe(true);
    expect(keyIssuable(inputs({ user: { ...approved, license_status: 'declined' } }))).toBe(false);
    expect(keyIssuable(inputs({ insurance: [{ status: 'MFA_EXPIRED' }] }))).toBe(false);
  });
  it('a trip that is over or cancelled has no key', () => {
    expect(accessKeyDisabled(inputs({ status: 'Canceled' }))).toBe(true);
    expect(accessKeyDisabled(inputs({ status: 'Returned' }))).toBe(true);
    expect(accessKeyDisabled(inputs({ status: 'On Rent' }))).toBe(false);
  });
});

describe('when a key opens the car', () => {
  const window = keyWindow(trip);
  const key = { status: 'active' as const, valid_from: window.from, valid_until: window.until };
  it('from 30 minutes before pickup until the return time', () => {
    expect(window.from.toISOString()).toBe('2027-01-08T15:30:00.000Z');
    expect(window.until.toISOString()).toBe('2027-01-15T16:00:00.000Z');
  });
  it('not before its window, then until the return, then expired', () => {
    expect(keyRefusal(key, new Date('2027-01-08T15:29:59Z'))).toBe('not_yet');
    expect(keyRefusal(key, new Date('2027-01-08T15:30:00Z'))).toBeNull();
    expect(keyRefusal(key, new Date('2027-01-15T15:59:59Z'))).toBeNull();
    expect(keyRefusal(key, new Date('2027-01-15T16:00:00Z'))).toBe('expired');
  });
  it('a paused or revoked key does not open the car', () => {
    const during = new Date('2027-01-10T12:00:00Z');
    expect(keyRefusal({ ...key, status: 'paused' }, during)).toBe('paused');
    expect(keyRefusal({ ...key, status: 'revoked' }, during)).toBe('revoked');
  });
});
