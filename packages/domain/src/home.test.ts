import { describe, expect, it } from 'vitest';
import type { ReservationStatus } from './constants.ts';
import { cityLabel, sameCity } from './filters.ts';
import { hasAnyTrip, homeGreeting, homeTrip, rentAgain, searchAgain } from './home.ts';

const trip = (id: string, status: ReservationStatus, model = 'Model Y', city = 'Nashville', state = 'TN') => ({
  id,
  status,
  vehicle: { model: { name: model } },
  pickup_location: { city, state },
});
const lists = (over: Partial<Record<'upcoming' | 'active' | 'past' | 'canceled', ReturnType<typeof trip>[]>> = {}) => ({
  upcoming: [],
  active: [],
  past: [],
  canceled: [],
  ...over,
});

describe('home greeting (spec 2: first name when known)', () => {
  it('a brand-new renter is welcomed, not welcomed back', () => {
    expect(homeGreeting('Ana', false)).toBe('Welcome, Ana');
    expect(homeGreeting(null, false)).toBe('Welcome');
  });
  it('a renter with trips is welcomed back, by name when it is known', () => {
    expect(homeGreeting('Ana', true)).toBe('Welcome back, Ana');
    expect(homeGreeting('   ', true)).toBe('Welcome back');
    expect(homeGreeting(undefined, true)).toBe('Welcome back');
  });
  it('any trip counts, a cancelled one too', () => {
    expect(hasAnyTrip(lists())).toBe(false);
    expect(hasAnyTrip(lists({ canceled: [trip('a', 'Canceled')] }))).toBe(true);
  });
});

describe('the reservation card', () => {
  it('shows the trip on rent before any upcoming one', () => {
    expect(homeTrip(lists({ active: [trip('now', 'On Rent')], upcoming: [trip('next', 'Pending')] }))?.id).toBe('now');
  });
  it('otherwise the soonest paid upcoming trip, passing over a booking not yet paid', () => {
    expect(
      homeTrip(lists({ upcoming: [trip('unpaid', 'Started'), trip('paid', 'Pending'), trip('later', 'Pending')] }))?.id,
    ).toBe('paid');
    expect(homeTrip(lists({ upcoming: [trip('unpaid', 'Started')], past: [trip('old', 'Returned')] }))).toBeNull();
  });
});

describe('Rent Again (spec 2: first 3 past trips, each a search for the same city and model)', () => {
  it('takes the first 3 past trips with their city as "City, ST" and their model', () => {
    const past = [
      trip('1', 'Returned', 'Model 3', 'Austin', 'TX'),
      trip('2', 'Returned', 'Model Y Long Range', 'St Louis', 'MO'),
      trip('3', 'Returned', 'Model X'),
      trip('4', 'Returned', 'Model S'),
    ];
    expect(rentAgain(past).map((r) => [r.trip.id, r.city, r.model])).toEqual([
      ['1', 'Austin, TX', 'Model 3'],
      ['2', 'St Louis, MO', 'Model Y Long Range'],
      ['3', 'Nashville, TN', 'Model X'],
    ]);
  });
  it('the same model in the same city twice is one tile', () => {
    const past = [trip('1', 'Returned'), trip('2', 'Returned'), trip('3', 'Returned', 'Model Y', 'Dallas', 'TX')];
    expect(rentAgain(past).map((r) => r.trip.id)).toEqual(['1', '3']);
  });
  it("Book Again (spec 2) searches the trip's own city and model, as Rent Again does", () => {
    expect(searchAgain(trip('1', 'Canceled', 'Model 3', 'Austin', 'TX'))).toEqual({
      city: 'Austin, TX',
      model: 'Model 3',
    });
  });
});

describe('city shortcuts (spec 2: /search?city=City, ST)', () => {
  it('search names a city "City, ST"', () => {
    expect(cityLabel(' Las Vegas', 'NV ')).toBe('Las Vegas, NV');
  });
  it('the same place however it is punctuated or cased', () => {
    expect(sameCity('St. Louis MO', 'St Louis, MO')).toBe(true);
    expect(sameCity('nashville,tn', 'Nashville, TN')).toBe(true);
    expect(sameCity('Austin, TX', 'Dallas, TX')).toBe(false);
  });
});
