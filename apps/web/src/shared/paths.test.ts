import { describe, expect, it } from 'vitest';
import { paths } from './paths.ts';

describe('the addresses paths builds from the patterns', () => {
  it('fills in and escapes the parameters, and leaves empty query values out', () => {
    expect(paths.trip.pay('R 1/2')).toBe('/trip/R%201%2F2/pay');
    expect(paths.trip.detail('R-7')).toBe('/trip/R-7');
    expect(paths.trip.extensionConfirmed('R-7')).toBe('/trip/R-7/extension/confirmed');
    expect(paths.vehicle('5YJ3 E', { pickupDate: '2030-01-02', returnDate: '' })).toBe(
      '/vehicle/5YJ3%20E?pickupDate=2030-01-02',
    );
    expect(paths.key('a/b')).toBe('/key/a%2Fb');
    expect(paths.login('/trips?tab=past')).toBe('/login?redirect=%2Ftrips%3Ftab%3Dpast');
    expect(paths.sharedReceipt('tok')).toBe('/receipt?token=tok');
    expect(paths.home()).toBe('/');
    expect(paths.onboarding.license()).toBe('/onboarding/license/verification');
  });

  it('never leaves a parameter unfilled', () => {
    const built = [
      paths.home(),
      paths.search(),
      paths.vehicle('V'),
      paths.login(),
      paths.logout(),
      paths.profile(),
      paths.trips(),
      ...Object.values(paths.onboarding).map((page) => page()),
      paths.createBooking({}),
      ...Object.values(paths.trip).map((page) => page('T', 'C')),
      paths.key('K'),
      paths.waiverContract(),
      paths.rentalAgreement(),
      paths.sharedReceipt('S'),
      paths.policies(),
      paths.forbidden(),
      paths.error(),
    ];
    for (const address of built) expect(address).not.toMatch(/[:*]/);
  });
});
