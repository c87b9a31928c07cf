import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DO_NOT_RENT_MAX_DAYS,
  DO_NOT_RENT_MESSAGE,
  FAILED_INSURANCE_STATES,
  REVIEW_DECISIONS,
  STAFF_TEXT_MAX_LENGTH,
  decisionPasses,
  effectiveInsuranceStatus,
  isListed,
  listingProblem,
  reviewProblem,
  reviewReason,
  staffTextProblem,
} from './renter-review.ts';
import {
  INSURANCE_STATES,
  insuranceVerificationRequired,
  licenseVerificationRequired,
  licenseVerificationStatus,
} from './verification.ts';

const NOW = new Date('2026-11-27T12:00:00Z');
const days = (n: number) => new Date(NOW.getTime() + n * 86_400_000);

describe('the review queue (decision 094)', () => {
  it('holds declined licenses as failed, resubmission requests as flagged, and nothing that passed', () => {
    expect(reviewReason('license', 'declined')).toBe('failed');
    expect(reviewReason('license', 'resubmission_requested')).toBe('flagged');
    for (const s of ['approved', 'created', 'started', 'submitted', 'expired', 'abandoned'])
      expect(reviewReason('license', s)).toBeNull();
  });
  it('holds the insurance connections in a failed state (spec 3), and none that is pending, active or waived', () => {
    for (const s of INSURANCE_STATES)
      expect(reviewReason('insurance', s)).toBe(FAILED_INSURANCE_STATES.includes(s) ? 'failed' : null);
    expect(FAILED_INSURANCE_STATES).toHaveLength(4);
  });
  it('approves only a flagged check; overriding and upholding need a reason of a few words', () => {
    expect(reviewProblem('flagged', 'approve', null)).toBeNull();
    expect(reviewProblem('failed', 'approve', 'seen at the desk')?.field).toBe('decision');
    expect(reviewProblem('failed', 'override', '  ')).toEqual({ field: 'reason', message: 'A reason is required.' });
    expect(reviewProblem('failed', 'override', 'ok')?.field).toBe('reason');
    expect(reviewProblem('failed', 'uphold', null)?.field).toBe('reason');
    expect(reviewProblem('failed', 'override', 'License seen at the desk, valid to 2030')).toBeNull();
    expect(reviewProblem('flagged', 'override', 'x'.repeat(501))?.field).toBe('reason');
  });
  it('lets the renter through on approve and override, never on uphold', () => {
    expect(REVIEW_DECISIONS.filter(decisionPasses)).toEqual(['approve', 'override']);
  });
  it('counts an insurance connection staff let through as WAIVED, so insurance is verified (spec 4)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...INSURANCE_STATES), fc.boolean(), (state, passed) => {
        const status = effectiveInsuranceStatus(state, passed);
        expect(status).toBe(passed ? 'WAIVED' : state);
        expect(insuranceVerificationRequired([{ status }])).toBe(!passed && state !== 'ACTIVE' && state !== 'WAIVED');
      }),
    );
  });
  it('counts a license staff let through as verified, whatever the provider said', () => {
    const declined = { license_number: null, license_expiration: null, license_status: 'declined' };
    const trip = { return_at: days(3), timezone: 'America/Chicago' };
    expect(licenseVerificationRequired(declined, trip)).toBe(true);
    expect(licenseVerificationStatus(declined)).toBe('failed');
    expect(licenseVerificationRequired({ ...declined, license_override: true }, trip)).toBe(false);
    expect(licenseVerificationStatus({ ...declined, license_override: true })).toBe('verified');
  });
});

describe('the do-not-rent list (decision 095)', () => {
  it('lists a renter while the listing is not lifted and now is before its expiry', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), fc.boolean(), (offsetMinutes, lifted) => {
        const until = new Date(NOW.getTime() + offsetMinutes * 60_000);
        const listed = isListed({ until, lifted_at: lifted ? NOW : null }, NOW);
        expect(listed).toBe(!lifted && offsetMinutes > 0);
      }),
    );
  });
  it('needs a reason and an expiry in the future, at most five years ahead', () => {
    expect(listingProblem({ reason: '', until: days(30) }, NOW)?.field).toBe('reason');
    expect(listingProblem({ reason: 'Card chargebacks', until: null }, NOW)).toEqual({
      field: 'until',
      message: 'An expiry date is required.',
    });
    expect(listingProblem({ reason: 'Card chargebacks', until: new Date('nonsense') }, NOW)?.field).toBe('until');
    expect(listingProblem({ reason: 'Card chargebacks', until: NOW }, NOW)?.field).toBe('until');
    expect(listingProblem({ reason: 'Card chargebacks', until: days(DO_NOT_RENT_MAX_DAYS + 1) }, NOW)?.field).toBe(
      'until',
    );
    expect(listingProblem({ reason: 'Card chargebacks', until: days(DO_NOT_RENT_MAX_DAYS) }, NOW)).toBeNull();
  });
  it('tells a listed renter courteously to contact support, without saying why', () => {
    expect(DO_NOT_RENT_MESSAGE).toMatch(/sorry/i);
    expect(DO_NOT_RENT_MESSAGE).toMatch(/support/i);
    expect(DO_NOT_RENT_MESSAGE).not.toMatch(/list|fraud|reason|ban|block/i);
  });
});

describe('a one-off text', () => {
  it('is not empty and fits in two text segments', () => {
    expect(staffTextProblem('   ')).toBe('Write the text to send.');
    expect(staffTextProblem('x'.repeat(STAFF_TEXT_MAX_LENGTH))).toBeNull();
    expect(staffTextProblem('x'.repeat(STAFF_TEXT_MAX_LENGTH + 1))).toMatch(/320/);
  });
});
