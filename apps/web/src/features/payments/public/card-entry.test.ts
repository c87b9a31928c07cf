import { describe, expect, it } from 'vitest';
import { cardErrors, cardPayload, detectBrand, formatCardNumber, formatExpiry, luhnValid } from './card-entry.ts';

const now = new Date(2026, 4, 15); // 15 May 2026, local time
const good = { number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', zip: '37203' };

describe('card form (spec 5: card Save needs the payment form complete)', () => {
  it('detects the brand as the number is typed, Elo before Visa and Discover', () => {
    expect(detectBrand('4')).toBe('visa');
    expect(detectBrand('5555')).toBe('mastercard');
    expect(detectBrand('2221')).toBe('mastercard');
    expect(detectBrand('37')).toBe('american express');
    expect(detectBrand('6011')).toBe('discover');
    expect(detectBrand('636368')).toBe('elo');
    expect(detectBrand('4011 78')).toBe('elo');
    expect(detectBrand('9')).toBeNull();
  });
  it('groups the number in fours, American Express as 4-6-5, and stops at the brand length', () => {
    expect(formatCardNumber('4242424242424242999')).toBe('4242 4242 4242 4242 999');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumber('37828224631000599')).toBe('3782 822463 10005');
    expect(formatCardNumber('5555-5555')).toBe('5555 5555');
  });
  it('writes the expiry as MM / YY', () => {
    expect(formatExpiry('4')).toBe('04 / ');
    expect(formatExpiry('12')).toBe('12 / ');
    expect(formatExpiry('1234')).toBe('12 / 34');
    expect(formatExpiry('12 / ', '12 / 3')).toBe('12 / ');
    expect(formatExpiry('12 /', '12 / ')).toBe('1');
  });
  it('checks Luhn', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('4000000000000002')).toBe(true);
  });
  it('is complete only with a valid number, a future expiry, the brand CVC length and a 5-digit ZIP', () => {
    expect(cardErrors(good, now)).toEqual({});
    expect(cardErrors({ ...good, number: '4242 4242 4242' }, now).number).toBe('Your card number is incomplete.');
    expect(cardErrors({ ...good, number: '4242 4242 4242 4241' }, now).number).toBe('Your card number is invalid.');
    expect(cardErrors({ ...good, expiry: '04 / 26' }, now).expiry).toBe("Your card's expiration date is in the past.");
    expect(cardErrors({ ...good, expiry: '05 / 26' }, now)).toEqual({});
    expect(cardErrors({ ...good, expiry: '12 / 25' }, now).expiry).toBe("Your card's expiration year is in the past.");
    expect(cardErrors({ ...good, expiry: '13 / 30' }, now).expiry).toBe("Your card's expiration date is invalid.");
    expect(cardErrors({ ...good, expiry: '12 / ' }, now).expiry).toBe("Your card's expiration date is incomplete.");
    expect(cardErrors({ ...good, cvc: '12' }, now).cvc).toBeDefined();
    expect(cardErrors({ ...good, number: '3782 822463 10005', cvc: '123' }, now).cvc).toBeDefined();
    expect(cardErrors({ ...good, number: '3782 822463 10005', cvc: '1234' }, now)).toEqual({});
    expect(cardErrors({ ...good, zip: '3720' }, now).zip).toBe('Your ZIP code is incomplete.');
  });
  it('sends the card as the gateway takes it', () => {
    expect(cardPayload(good)).toEqual({
      number: '4242424242424242',
      exp_month: 12,
      exp_year: 2034,
      cvc: '123',
      postal_code: '37203',
    });
  });
});
