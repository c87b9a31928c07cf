import { describe, expect, it } from 'vitest';
import {
  CARD_MESSAGES,
  TEST_CARDS,
  brandName,
  cvcLength,
  detectBrand,
  evaluateCardForSetup,
  normalizeCardNumber,
  passesLuhn,
} from './sandbox-cards.ts';

const NOW = new Date('2026-11-22T15:00:00Z');
const future = { exp_month: 12, exp_year: 2030 };
const save = (number: string, extra: Partial<{ exp_month: number; exp_year: number; cvc: string }> = {}) =>
  evaluateCardForSetup({ number, cvc: '123', ...future, ...extra }, NOW);

describe('published Stripe test cards', () => {
  it.each([
    ['4242 4242 4242 4242', 'visa', '4242'],
    ['4000 0566 5566 5556', 'visa', '5556'],
    ['5555 5555 5555 4444', 'mastercard', '4444'],
    ['2223 0031 2200 3222', 'mastercard', '3222'],
    ['5200 8282 8282 8210', 'mastercard', '8210'],
    ['5105 1051 0510 5100', 'mastercard', '5100'],
    ['6011 1111 1111 1117', 'discover', '1117'],
    ['6011 0009 9013 9424', 'discover', '9424'],
    ['3056 9300 0902 0004', 'diners', '0004'],
    ['3566 0020 2036 0505', 'jcb', '0505'],
    ['6200 0000 0000 0005', 'unionpay', '0005'],
  ])('rule: %s is saved as %s ending %s', (number, brand, last4) => {
    expect(save(number)).toEqual({ ok: true, card: { brand, last4, ...future, behaviour: 'succeeds' } });
  });

  it('rule: American Express 3782 822463 10005 is saved with a 4-digit security code', () => {
    expect(save('3782 822463 10005', { cvc: '1234' })).toEqual({
      ok: true,
      card: { brand: 'amex', last4: '0005', ...future, behaviour: 'succeeds' },
    });
  });

  it.each([
    ['4000000000000002', 'card_declined', 'generic_decline', 'Your card was declined.'],
    ['4000000000009995', 'card_declined', 'insufficient_funds', 'Your card has insufficient funds.'],
    ['4000000000009987', 'card_declined', 'lost_card', 'Your card was declined.'],
    ['4000000000009979', 'card_declined', 'stolen_card', 'Your card was declined.'],
    ['4000000000000069', 'expired_card', null, 'Your card has expired.'],
    ['4000000000000127', 'incorrect_cvc', null, "Your card's security code is incorrect."],
    [
      '4000000000000119',
      'processing_error',
      null,
      'An error occurred while processing your card. Try again in a little bit.',
    ],
  ])('rule: %s is refused with %s / %s', (number, code, declineCode, message) => {
    const result = save(number);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toMatchObject({ type: 'card_error', code, decline_code: declineCode, message });
  });

  it('rule: 4000 0000 0000 0341 attaches, and is marked so charges to it fail', () => {
    expect(save('4000000000000341')).toMatchObject({
      ok: true,
      card: { brand: 'visa', last4: '0341', behaviour: 'charge_fails' },
    });
  });

  it('rule: any other Luhn-valid number is declined as a non-test card', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(save('4111 1111 1111 1111')).toEqual({
      ok: false,
      error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'test_mode_live_card',
        message: CARD_MESSAGES.nonTestCard,
      },
    });
  });

  it('every number in the table passes the Luhn check', () => {
    for (const number of Object.keys(TEST_CARDS)) expect(passesLuhn(number), number).toBe(true);
  });
});

describe('card number', () => {
  it('rule: spaces and dashes are ignored', () => {
    expect(normalizeCardNumber(' 4242-4242 4242-4242 ')).toBe('4242424242424242');
    expect(save('4242-4242-4242-4242').ok).toBe(true);
  });

  it('rule: the last digit is the Luhn check digit', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(passesLuhn('79927398713')).toBe(true);
    expect(passesLuhn('4242a24242424242')).toBe(false);
  });

  it.each(['4242 4242 4242 4241', '4242', '4242 4242 4242 4242 4242 42', 'abcd efgh ijkl mnop'])(
    'rule: %s is refused as an invalid number',
    (number) => {
      expect(save(number)).toEqual({
        ok: false,
        error: {
          type: 'card_error',
          code: 'incorrect_number',
          decline_code: null,
          message: 'Your card number is invalid.',
          param: 'number',
        },
      });
    },
  );

  it.each([
    ['4242424242424242', 'visa'],
    ['5105105105105100', 'mastercard'],
    ['2720990000000007', 'mastercard'],
    ['371449635398431', 'amex'],
    ['341111111111111', 'amex'],
    ['6011000990139424', 'discover'],
    ['6445644564456445', 'discover'],
    ['6555900000604105', 'discover'],
    ['36227206271667', 'diners'],
    ['3530111333300000', 'jcb'],
    ['6200000000000005', 'unionpay'],
    ['9999999999999995', 'unknown'],
  ])('rule: brand follows the leading digits: %s is %s', (number, brand) => {
    expect(detectBrand(number)).toBe(brand);
  });

  it('rule: brands are named as the spec shows them; Stripe’s amex is american express', () => {
    expect(brandName('amex')).toBe('american express');
    expect(brandName('visa')).toBe('visa');
    expect(brandName('mastercard')).toBe('mastercard');
    expect(brandName('discover')).toBe('discover');
    expect(brandName(null)).toBe('unknown');
  });
});

describe('expiry', () => {
  it('rule: a card is good through the last day of its expiry month', () => {
    expect(save('4242424242424242', { exp_month: 11, exp_year: 2026 }).ok).toBe(true);
  });

  it('rule: an earlier month this year is in the past', () => {
    expect(save('4242424242424242', { exp_month: 10, exp_year: 2026 })).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_expiry_month',
        message: "Your card's expiration date is in the past.",
        param: 'exp_month',
      },
    });
  });

  it('rule: an earlier year is in the past', () => {
    expect(save('4242424242424242', { exp_month: 12, exp_year: 2025 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_expiry_year', message: "Your card's expiration date is in the past.", param: 'exp_year' },
    });
  });

  it('rule: a two-digit year is read in this century', () => {
    expect(save('4242424242424242', { exp_month: 1, exp_year: 30 })).toMatchObject({
      ok: true,
      card: { exp_year: 2030 },
    });
    expect(save('4242424242424242', { exp_month: 1, exp_year: 25 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_expiry_year' },
    });
  });

  it.each([0, 13])('rule: month %i is not a month', (month) => {
    expect(save('4242424242424242', { exp_month: month })).toMatchObject({
      ok: false,
      error: { code: 'invalid_expiry_month', message: "Your card's expiration month is invalid." },
    });
  });

  it('rule: a year more than 50 years ahead is invalid', () => {
    expect(save('4242424242424242', { exp_year: 2077 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_expiry_year', message: "Your card's expiration year is invalid." },
    });
  });
});

describe('security code', () => {
  it('rule: 4 digits for American Express, 3 for every other brand', () => {
    expect(cvcLength('amex')).toBe(4);
    expect(cvcLength('visa')).toBe(3);
    expect(cvcLength('discover')).toBe(3);
  });

  it.each([
    ['4242424242424242', '12'],
    ['4242424242424242', '1234'],
    ['4242424242424242', '12a'],
    ['378282246310005', '123'],
    ['378282246310005', '12345'],
  ])('rule: %s with security code %s is refused as invalid', (number, cvc) => {
    expect(save(number, { cvc })).toEqual({
      ok: false,
      error: {
        type: 'card_error',
        code: 'invalid_cvc',
        decline_code: null,
        message: "Your card's security code is invalid.",
        param: 'cvc',
      },
    });
  });

  it('rule: a published decline card still needs a valid form first (a bad code is reported before the decline)', () => {
    expect(save('4000000000000002', { cvc: '1' })).toMatchObject({ ok: false, error: { code: 'invalid_cvc' } });
  });
});
