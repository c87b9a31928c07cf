import { describe, expect, it } from 'vitest';
import {
  type TripFacts,
  composeMessage,
  holdLapsesAt,
  mayMessage,
  MESSAGE_KINDS,
  MESSAGE_PURPOSE,
  plainText,
  quietHoursEnd,
  sendAfter,
  stillApplies,
} from './messages.ts';
import { toInstant } from './time.ts';

const chicago = 'America/Chicago';
const denver = 'America/Denver';
const at = (date: string, time: string, zone = chicago) => toInstant({ date, time }, zone);

const facts: TripFacts = {
  platformId: 'AMP-7K2-QX9',
  firstName: 'Dana',
  model: 'Model 3',
  pickupAt: at('2027-03-14', '10:00'),
  returnAt: at('2027-03-17', '10:00'),
  timeZone: chicago,
  place: { name: 'Broadway Garage', street: '501 Broadway', city: 'Nashville', state: 'TN', zip_code: '37203' },
  pickupInstructions: 'Level 2, bay 14.\nThe car is unlocked by your key.',
  baseUrl: 'https://rent.example.com',
};

describe('quiet hours (decision 069: 21:00–08:00 on the pickup place’s clock)', () => {
  it('rule: a message at 2 PM local goes at once', () => {
    expect(quietHoursEnd(at('2027-06-01', '14:00'), chicago)).toBeNull();
  });

  it('rule: at 9 PM the night begins; at 7:59 AM it has not ended; at 8 AM it has', () => {
    expect(quietHoursEnd(at('2027-06-01', '20:59'), chicago)).toBeNull();
    expect(quietHoursEnd(at('2027-06-01', '21:00'), chicago)).toEqual(at('2027-06-02', '08:00'));
    expect(quietHoursEnd(at('2027-06-02', '07:59'), chicago)).toEqual(at('2027-06-02', '08:00'));
    expect(quietHoursEnd(at('2027-06-02', '08:00'), chicago)).toBeNull();
  });

  it('rule: the night clocks spring forward still ends at 8 AM local (9 hours later, not 10)', () => {
    const night = at('2027-03-13', '22:00');
    const end = quietHoursEnd(night, chicago)!;
    expect(end.toISOString()).toBe('2027-03-14T13:00:00.000Z'); // 8 AM CDT
    expect((end.getTime() - night.getTime()) / 3_600_000).toBe(9);
  });

  it('rule: the night clocks fall back still ends at 8 AM local (11 hours later)', () => {
    const night = at('2027-11-06', '22:00');
    const end = quietHoursEnd(night, chicago)!;
    expect(end.toISOString()).toBe('2027-11-07T14:00:00.000Z'); // 8 AM CST
    expect((end.getTime() - night.getTime()) / 3_600_000).toBe(11);
  });

  it('rule: the same instant is quiet in one zone and not in another', () => {
    const instant = at('2027-06-01', '21:30', chicago); // 8:30 PM in Denver
    expect(quietHoursEnd(instant, chicago)).not.toBeNull();
    expect(quietHoursEnd(instant, denver)).toBeNull();
  });

  it('rule: a booking confirmed at 11 PM is told at 8 AM; a hold about to lapse is told at once', () => {
    const now = at('2027-06-01', '23:00');
    const ctx = { now, pickupAt: at('2027-06-03', '10:00'), timeZone: chicago };
    expect(sendAfter('booking_confirmed', ctx)).toEqual(at('2027-06-02', '08:00'));
    expect(sendAfter('trip_ended', ctx)).toEqual(at('2027-06-02', '08:00'));
    expect(sendAfter('hold_lapsing', ctx)).toEqual(now);
  });

  it('rule: a key ready at night waits for 8 AM unless the trip begins before then', () => {
    const now = at('2027-06-01', '23:00');
    expect(sendAfter('key_ready', { now, pickupAt: at('2027-06-02', '10:00'), timeZone: chicago })).toEqual(
      at('2027-06-02', '08:00'),
    );
    expect(sendAfter('key_ready', { now, pickupAt: at('2027-06-02', '06:30'), timeZone: chicago })).toEqual(now);
  });
});

describe('consent (spec 2, Login): trip messages are transactional', () => {
  it('rule: every trip message is sent without marketing consent; marketing never is', () => {
    for (const kind of MESSAGE_KINDS) {
      expect(MESSAGE_PURPOSE[kind]).toBe('transactional');
      expect(mayMessage(MESSAGE_PURPOSE[kind], false)).toBe(true);
    }
    expect(mayMessage('marketing', false)).toBe(false);
    expect(mayMessage('marketing', true)).toBe(true);
  });
});

describe('wording (times on the pickup place’s clock, with its zone)', () => {
  it('booking confirmed: dates in the location’s zone, place and trip link', () => {
    const m = composeMessage(facts, { kind: 'booking_confirmed' });
    expect(m.sms).toBe(
      'Ampere: your Model 3 is booked. Pickup Mar 14, 2027, 10:00 AM CDT at Broadway Garage, 501 Broadway, Nashville, TN 37203. Return Mar 17, 2027, 10:00 AM CDT. https://rent.example.com/trip/AMP-7K2-QX9',
    );
    expect(m.email.subject).toBe('Booking confirmed: Model 3, Mar 14, 2027, 10:00 AM CDT');
    expect(m.email.text).toContain('Hi Dana,');
    expect(m.email.text).toContain('Place: Broadway Garage, 501 Broadway, Nashville, TN 37203');
  });

  it('the same trip read in Denver shows Denver’s clock', () => {
    const m = composeMessage({ ...facts, timeZone: denver }, { kind: 'booking_confirmed' });
    expect(m.sms).toContain('Pickup Mar 14, 2027, 9:00 AM MDT');
  });

  it('the day before pickup: instructions and what is still to verify', () => {
    const m = composeMessage(facts, { kind: 'pickup_tomorrow', outstanding: ['license', 'insurance'] });
    expect(m.sms).toContain("Still to do before your key: Verify your driver's license; Verify your insurance.");
    expect(m.email.text).toContain('Pickup instructions:\nLevel 2, bay 14.\nThe car is unlocked by your key.');
    expect(m.email.text).toContain("- Verify your driver's license\n- Verify your insurance");
    const ready = composeMessage(facts, { kind: 'pickup_tomorrow', outstanding: [] });
    expect(ready.sms).toContain('You are all set');
  });

  it('trip ended: fees, deposit, receipt link', () => {
    const none = composeMessage(facts, { kind: 'trip_ended', feesCents: 0, depositCents: 20_000 });
    expect(none.sms).toBe(
      'Ampere: your trip in the Model 3 has ended. No fees were charged for the return. Your $200.00 deposit is released within 24 hours, once the car is checked. Receipt: https://rent.example.com/trip/AMP-7K2-QX9/receipt',
    );
    const some = composeMessage(facts, { kind: 'trip_ended', feesCents: 4_550, depositCents: 20_000 });
    expect(some.sms).toContain(
      'Fees: $45.50. From your $200.00 deposit, the fees are taken and the rest is released within 24 hours, once the car is checked.',
    );
  });

  it('a charge and a refund name the amount in dollars', () => {
    expect(
      composeMessage(facts, { kind: 'charge_made', amountCents: 4_550, description: 'the fees of your return' }).sms,
    ).toContain('we charged $45.50 to your card for the fees of your return (Trip AMP-7K2-QX9)');
    expect(composeMessage(facts, { kind: 'refund_made', amountCents: 31_234 }).email.subject).toBe(
      'A refund of $312.34: Model 3',
    );
  });

  it('a hold about to lapse names when, on the local clock, and links to pay', () => {
    const created = at('2027-03-10', '21:50');
    const m = composeMessage(facts, { kind: 'hold_lapsing', lapsesAt: holdLapsesAt(created) });
    expect(m.sms).toContain(
      'is held until 10:20 PM CST. Pay by then to keep it: https://rent.example.com/trip/AMP-7K2-QX9/pay',
    );
  });

  it('key ready names when the key opens the car', () => {
    expect(composeMessage(facts, { kind: 'key_ready' }).sms).toContain(
      'the key to your Model 3 is ready. Open it from your trip page from 30 minutes before pickup (Mar 14, 2027, 10:00 AM CDT)',
    );
  });

  it('a key replaced by the desk says the old link is dead and goes out even in the quiet hours', () => {
    const m = composeMessage(facts, { kind: 'key_replaced' });
    expect(m.sms).toContain('The old key link no longer opens the car');
    expect(m.email.subject).toBe('Your key was replaced: Model 3');
    const night = new Date('2027-03-14T04:00:00Z'); // 23:00 in Chicago
    expect(sendAfter('key_replaced', { now: night, pickupAt: night, timeZone: 'America/Chicago' })).toEqual(night);
  });

  it('instructions written as HTML read as plain lines', () => {
    expect(plainText('<p>Level 2 &amp; bay 14</p><p>Ask <b>the desk</b></p>')).toBe('Level 2 & bay 14\nAsk the desk');
  });
});

describe('a message held by the quiet hours still applies when sent', () => {
  it('rule: a reminder for a trip since cancelled is dropped; a refund is always told', () => {
    expect(stillApplies('pickup_tomorrow', 'Canceled')).toBe(false);
    expect(stillApplies('key_ready', 'Pending')).toBe(true);
    expect(stillApplies('hold_lapsing', 'Pending')).toBe(false);
    expect(stillApplies('refund_made', 'Canceled')).toBe(true);
  });
});
