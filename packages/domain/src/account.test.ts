import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ANALYTICS_EVENTS,
  CARD_BRANDS,
  FLAG_DEFAULTS,
  LOGIN_CODE_MAX_ATTEMPTS,
  LOGIN_CODE_TTL_MINUTES,
  SAVED_CARDS_LISTED,
  SESSION_TTL_MINUTES,
  SMS_RESEND_COOLDOWN_SECONDS,
  SMS_SENDS_PER_PHONE_PER_HOUR,
  US_STATE_CODES,
  adventuringSince,
  ageOn,
  birthdayError,
  cardBrandIcon,
  countryError,
  emailError,
  hasProfileCard,
  isValidEmail,
  latestAllowedBirthday,
  licenseBadge,
  renewedSessionEnd,
  stateError,
  statusBadge,
  zipError,
} from './account.ts';
import { formatPhone, normalizePhone } from './phone.ts';

describe('sign-in and session constants', () => {
  it('rule LOGIN_CODE_TTL_MINUTES: a login code expires in 10 minutes', () => {
    expect(LOGIN_CODE_TTL_MINUTES).toBe(10);
  });
  it('rule SESSION_TTL_MINUTES: a session lasts 1440 minutes', () => {
    expect(SESSION_TTL_MINUTES).toBe(1440);
  });
  it('rule (decision 072): a session used 10 minutes or more after its last renewal runs 1440 minutes from that use', () => {
    const signedIn = new Date('2031-03-09T18:00:00Z');
    const end = new Date(signedIn.getTime() + 1440 * 60_000);
    const at = (minutes: number) => new Date(signedIn.getTime() + minutes * 60_000);
    expect(renewedSessionEnd(end, at(9))).toBeNull();
    expect(renewedSessionEnd(end, at(10))).toEqual(new Date(at(10).getTime() + 1440 * 60_000));
    expect(renewedSessionEnd(end, at(1439))).toEqual(new Date(at(1439).getTime() + 1440 * 60_000));
  });
  it('rule (decision 072): an ended session is never revived', () => {
    const end = new Date('2031-03-10T18:00:00Z');
    expect(renewedSessionEnd(end, end)).toBeNull();
    expect(renewedSessionEnd(end, new Date('2031-03-11T09:00:00Z'))).toBeNull();
  });
  it('rule LOGIN_CODE_MAX_ATTEMPTS: a code dies after 5 wrong tries', () => {
    expect(LOGIN_CODE_MAX_ATTEMPTS).toBe(5);
  });
  it('rule SMS_SENDS_PER_PHONE_PER_HOUR: at most 5 codes an hour to one phone', () => {
    expect(SMS_SENDS_PER_PHONE_PER_HOUR).toBe(5);
  });
  it('rule SMS_RESEND_COOLDOWN_SECONDS: the resend cooldown is 30 seconds, shorter than a code lasts', () => {
    expect(SMS_RESEND_COOLDOWN_SECONDS).toBe(30);
    expect(SMS_RESEND_COOLDOWN_SECONDS).toBeLessThan(LOGIN_CODE_TTL_MINUTES * 60);
  });
  it('rule SAVED_CARDS_LISTED: the payment page lists 3 saved cards', () => {
    expect(SAVED_CARDS_LISTED).toBe(3);
  });
});

describe('ANALYTICS_EVENTS', () => {
  it('rule ANALYTICS_EVENTS: lists every event spec 7 names, each once', () => {
    const spec7 = [
      'search_performed',
      'filter_applied',
      'vehicle_card_clicked',
      'booking_started',
      'damage_waiver_accepted',
      'damage_waiver_declined',
      'damage_waiver_selected_on_booking_card',
      'agreements_signed',
      'payment_completed',
      'payment_failed',
      'payment_button_clicked',
      'id_verified',
      'insurance_verified',
      'paid_and_verified',
      'reservation_eligibility_check_success',
      'reservation_eligibility_check_failed',
      'user_birthday_updated',
      'user_address_updated',
      'auth_started',
      'auth_completed',
      'book_now_clicked',
      'vehicle_details_viewed',
      'vehicle_photos_viewed',
    ];
    for (const name of spec7) expect(ANALYTICS_EVENTS).toContain(name);
    expect(new Set(ANALYTICS_EVENTS).size).toBe(ANALYTICS_EVENTS.length);
  });
});

describe('FLAG_DEFAULTS', () => {
  it('rule FLAG_DEFAULTS (spec 3): skip-damage-waiver off, adding cards on, colours set', () => {
    expect(FLAG_DEFAULTS['skip-damage-waiver']).toBe(false);
    expect(FLAG_DEFAULTS['allow-add-card']).toBe(true);
    expect(FLAG_DEFAULTS['button-background']).toMatch(/^#[0-9a-f]{6}$/i);
    expect(FLAG_DEFAULTS['icon-color']).toMatch(/^#[0-9a-f]{6}$/i);
  });
});

describe('normalizePhone', () => {
  it('rule normalizePhone: writes a valid number in E.164, reading a number without a country code as US', () => {
    expect(normalizePhone('(615) 555-0123')).toEqual({ ok: true, e164: '+16155550123', country: 'US' });
    expect(normalizePhone('615.555.0123')).toMatchObject({ ok: true, e164: '+16155550123' });
    expect(normalizePhone('  +1 615 555 0123 ')).toMatchObject({ ok: true, e164: '+16155550123' });
    expect(normalizePhone('1-615-555-0123')).toMatchObject({ ok: true, e164: '+16155550123' });
  });
  it('rule normalizePhone: an invalid number is refused with a message showing the expected form', () => {
    for (const bad of ['', 'abc', '12345', '+1 615 555 01', '+1 555 555 0100', '(123) 456-7890']) {
      const r = normalizePhone(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) {
        expect(r.reason).toBe('invalid');
        expect(r.message).toBe('Enter a valid mobile phone number, e.g. (615) 555-0123.');
      }
    }
  });
  it('rule normalizePhone: a number from a country not allowed is refused with a message naming that country', () => {
    const r = normalizePhone('+44 20 7946 0958');
    expect(r).toMatchObject({ ok: false, reason: 'country', country: 'GB' });
    if (!r.ok) {
      expect(r.message).toContain('United Kingdom');
      expect(r.message).toContain('United States');
    }
    expect(normalizePhone('+1 613 555 0100')).toMatchObject({ ok: false, reason: 'country', country: 'CA' });
  });
  it('rule normalizePhone: the allowed countries are a parameter', () => {
    expect(normalizePhone('+1 613 555 0100', ['US', 'CA'])).toEqual({ ok: true, e164: '+16135550100', country: 'CA' });
    expect(normalizePhone('+44 20 7946 0958', ['US', 'GB'])).toMatchObject({
      ok: true,
      e164: '+442079460958',
      country: 'GB',
    });
  });
  it('rule normalizePhone: the E.164 form of an accepted number is accepted again unchanged (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 9 }), fc.integer({ min: 0, max: 9_999 }), (first, line) => {
        const input = `(${first}15) 555-${String(line).padStart(4, '0')}`;
        const once = normalizePhone(input);
        if (!once.ok) return true;
        expect(normalizePhone(once.e164)).toEqual(once);
        return true;
      }),
    );
  });
});

describe('formatPhone', () => {
  it('rule formatPhone: a US number is shown (615) 555-0123', () => {
    expect(formatPhone('+16155550123')).toBe('(615) 555-0123');
  });
  it('rule formatPhone: other numbers in international form', () => {
    expect(formatPhone('+442079460958')).toBe('+44 20 7946 0958');
  });
});

describe('email', () => {
  it('rule isValidEmail (spec 5): {local}@{domain}.{tld} with no spaces', () => {
    expect(isValidEmail('ada@example.com')).toBe(true);
    expect(isValidEmail('a.b+c@sub.example.co')).toBe(true);
    for (const bad of ['ada', 'ada@example', 'ada @example.com', 'ada@exa mple.com', '@example.com', 'ada@.com@x'])
      expect(isValidEmail(bad), bad).toBe(false);
  });
  it("rule emailError (spec 5): empty gives 'Email is required'", () => {
    expect(emailError('')).toBe('Email is required');
    expect(emailError('   ')).toBe('Email is required');
  });
  it("rule emailError (spec 5): a bad format gives 'Please enter a valid email address'", () => {
    expect(emailError('ada@example')).toBe('Please enter a valid email address');
  });
  it('rule emailError: a valid address, even with spaces around it, has no error', () => {
    expect(emailError(' ada@example.com ')).toBeNull();
  });
});

describe('birthday and age', () => {
  it('rule latestAllowedBirthday: today minus 18 years', () => {
    expect(latestAllowedBirthday('2026-11-22')).toBe('2008-11-22');
    expect(latestAllowedBirthday('2026-11-22', 25)).toBe('2001-11-22');
  });
  it('rule latestAllowedBirthday: on 29 February, 18 years back is 28 February', () => {
    expect(latestAllowedBirthday('2028-02-29')).toBe('2010-02-28');
  });
  it('rule birthdayError (spec 5, minimum age 18): exactly 18 today is allowed, a day younger is refused', () => {
    expect(birthdayError('2008-11-22', '2026-11-22')).toBeNull();
    expect(birthdayError('2008-11-23', '2026-11-22')).toBe('You must be at least 18 years old to rent with us');
  });
  it('rule birthdayError: the date must be written YYYY-MM-DD and be real', () => {
    expect(birthdayError('11/22/1990', '2026-11-22')).toBe('Birthday must be a date written YYYY-MM-DD');
    expect(birthdayError('', '2026-11-22')).toBe('Birthday must be a date written YYYY-MM-DD');
    expect(birthdayError('1990-02-30', '2026-11-22')).toBe('Birthday is not a real date');
    expect(birthdayError('1990-13-01', '2026-11-22')).toBe('Birthday is not a real date');
  });
  it('rule birthdayError: birthdays before 1900 are refused', () => {
    expect(birthdayError('1899-12-31', '2026-11-22')).toBe('Birthday must be after 1900');
  });
  it('rule birthdayError agrees with ageOn: allowed exactly when the age on today is at least 18 (property)', () => {
    const day = fc
      .date({ min: new Date('1950-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, day, (birthday, today) => {
        if (birthday > today) return true;
        expect(birthdayError(birthday, today) === null).toBe(ageOn(birthday, today) >= 18);
        return true;
      }),
    );
  });
  it('rule ageOn: whole years, a year more only from the birthday on', () => {
    expect(ageOn('1990-06-15', '2026-06-14')).toBe(35);
    expect(ageOn('1990-06-15', '2026-06-15')).toBe(36);
    expect(ageOn('2001-11-23', '2026-11-22')).toBe(24);
  });
});

describe('address', () => {
  it('rule stateError: a real two-letter US state code, in any case', () => {
    expect(stateError('TN')).toBeNull();
    expect(stateError('tn')).toBeNull();
    expect(stateError('DC')).toBeNull();
    expect(stateError('PR')).toBeNull();
    for (const bad of ['XX', 'T', 'TEN', '', 'ON'])
      expect(stateError(bad), bad).toBe('State must be a two-letter US state code, e.g. TN');
  });
  it('rule US_STATE_CODES: the 50 states, DC and 5 territories, each once', () => {
    expect(US_STATE_CODES).toHaveLength(56);
    expect(new Set(US_STATE_CODES).size).toBe(56);
  });
  it('rule zipError: 5 digits, or ZIP+4', () => {
    expect(zipError('37203')).toBeNull();
    expect(zipError('37203-1234')).toBeNull();
    for (const bad of ['3720', '372033', 'ABCDE', '37203-12', '37203 1234', ''])
      expect(zipError(bad), bad).toBe('ZIP code must be 5 digits, e.g. 37203');
  });
  it("rule countryError (spec 7): only 'us', in any case", () => {
    expect(countryError('us')).toBeNull();
    expect(countryError('US')).toBeNull();
    expect(countryError('ca')).toContain("not 'ca'");
    expect(countryError('United Kingdom')).toContain('United States');
  });
});

describe('profile card', () => {
  it("rule adventuringSince (spec 2): 'Adventuring since {Mon YYYY}'", () => {
    expect(adventuringSince('2026-03-15T12:00:00Z')).toBe('Adventuring since Mar 2026');
  });
  it('rule adventuringSince: the month is read in the given zone, not the machine’s', () => {
    // 1 Jan 02:00 UTC is still 31 Dec in Chicago.
    expect(adventuringSince(new Date('2027-01-01T02:00:00Z'))).toBe('Adventuring since Dec 2026');
    expect(adventuringSince(new Date('2027-01-01T02:00:00Z'), 'UTC')).toBe('Adventuring since Jan 2027');
  });
  it('rule hasProfileCard (spec 2): shown only when first name and email exist', () => {
    expect(hasProfileCard({ first_name: 'Ada', email: 'ada@example.com' })).toBe(true);
    expect(hasProfileCard({ first_name: 'Ada', email: null })).toBe(false);
    expect(hasProfileCard({ first_name: null, email: 'ada@example.com' })).toBe(false);
    expect(hasProfileCard({ first_name: '', email: 'ada@example.com' })).toBe(false);
    expect(hasProfileCard(null)).toBe(false);
    expect(hasProfileCard(undefined)).toBe(false);
  });
  it("rule licenseBadge (spec 4): 'expired' if the expiration is before today, else 'active'", () => {
    expect(licenseBadge('2026-11-21', '2026-11-22')).toBe('expired');
    expect(licenseBadge('2026-11-22', '2026-11-22')).toBe('active');
    expect(licenseBadge('2030-01-01', '2026-11-22')).toBe('active');
    expect(licenseBadge(null, '2026-11-22')).toBe('active');
  });
});

describe('statusBadge', () => {
  it('rule statusBadge (spec 4): active, approved, authorized, paid, verified are green', () => {
    for (const s of ['active', 'approved', 'authorized', 'paid', 'verified', 'ACTIVE'])
      expect(statusBadge(s).type, s).toBe('success');
  });
  it('rule statusBadge (spec 4): declined, disabled, inaccessible, required, failed are red; disabled and inaccessible say Account …', () => {
    for (const s of ['declined', 'required', 'failed']) expect(statusBadge(s), s).toEqual({ label: s, type: 'error' });
    expect(statusBadge('disabled')).toEqual({ label: 'Account Disabled', type: 'error' });
    expect(statusBadge('ACCOUNT_DISABLED')).toEqual({ label: 'Account Disabled', type: 'error' });
    expect(statusBadge('inaccessible')).toEqual({ label: 'Account Inaccessible', type: 'error' });
    expect(statusBadge('ACCOUNT_INACCESSIBLE')).toEqual({ label: 'Account Inaccessible', type: 'error' });
  });
  it('rule statusBadge (spec 4): review and pending are yellow, waived purple', () => {
    expect(statusBadge('review').type).toBe('warning');
    expect(statusBadge('PENDING').type).toBe('warning');
    expect(statusBadge('WAIVED')).toEqual({ label: 'waived', type: 'waived' });
  });
  it("rule statusBadge (spec 4): resubmission is shown 'Resubmission Requested'; submitted, expired and others are grey", () => {
    expect(statusBadge('resubmission')).toEqual({ label: 'Resubmission Requested', type: 'default' });
    expect(statusBadge('submitted')).toEqual({ label: 'submitted', type: 'default' });
    expect(statusBadge('expired')).toEqual({ label: 'expired', type: 'default' });
    expect(statusBadge(null)).toEqual({ label: 'unknown', type: 'default' });
  });
});

describe('cards', () => {
  it('rule cardBrandIcon (spec 5): visa, mastercard, american express, discover, elo; unknown falls back to visa', () => {
    for (const brand of CARD_BRANDS) expect(cardBrandIcon(brand)).toBe(brand);
    expect(cardBrandIcon('amex')).toBe('american express');
    expect(cardBrandIcon('American_Express')).toBe('american express');
    expect(cardBrandIcon('MasterCard')).toBe('mastercard');
    expect(cardBrandIcon('unionpay')).toBe('visa');
    expect(cardBrandIcon(null)).toBe('visa');
  });
});
