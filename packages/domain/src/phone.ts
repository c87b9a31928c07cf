import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { formatNorthAmericanPhone } from './account.ts';

/**
 * Phone numbers read and written with the phone library's metadata (about 120 KB): the API's checks
 * and the console's lists. The renter's pages show North American numbers with
 * `formatNorthAmericanPhone` and load this module only for a number from elsewhere (decision 105).
 */

export type PhoneCheck =
  | { ok: true; e164: string; country: string }
  | { ok: false; reason: 'invalid' | 'country'; message: string; country?: string };

function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * Rule: phone numbers are validated and written in E.164; a number without a country code is read
 * as a US number; a number from a country not in `allowed` is refused with a message naming it.
 */
export function normalizePhone(input: string, allowed: readonly string[] = ['US'], defaultCountry = 'US'): PhoneCheck {
  const text = input.trim();
  const digits = text.replace(/\D/g, '');
  if (digits.length < 7)
    return { ok: false, reason: 'invalid', message: 'Enter a valid mobile phone number, e.g. (615) 555-0123.' };
  const parsed = parsePhoneNumberFromString(text, defaultCountry as CountryCode);
  if (!parsed || !parsed.isValid())
    return { ok: false, reason: 'invalid', message: 'Enter a valid mobile phone number, e.g. (615) 555-0123.' };
  const country = parsed.country ?? '';
  if (!allowed.includes(country)) {
    const names = allowed.map(countryName).join(', ');
    return {
      ok: false,
      reason: 'country',
      country,
      message: `We can only text phone numbers from ${names}; ${country ? countryName(country) : 'that country'} is not supported yet.`,
    };
  }
  return { ok: true, e164: parsed.number, country };
}

/** '+16155550123' → '(615) 555-0123'; other numbers in international form, e.g. '+44 20 7946 0958'. */
export function formatPhone(e164: string): string {
  return formatNorthAmericanPhone(e164) ?? parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}
