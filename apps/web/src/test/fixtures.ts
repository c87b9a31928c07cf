/**
 * What the API answers, for component tests: a renter, a trip and its line items, a car, a place.
 * Each builder checks its result against the API contract (packages/domain's zod schemas), so a
 * fake answer is one the real server could give. Instants are fixed: a test never leans on the
 * day it runs (the pages read the server's answers, not the browser's clock, for these).
 */
import { SavedCard, User } from '@ampere/domain/contract/account';
import { PaymentSecrets, Reservation, type Transaction } from '@ampere/domain/contract/booking';
import { Addon, Location, SearchOption, Vehicle, VehicleModel } from '@ampere/domain/contract/catalog';

export const CHICAGO = 'America/Chicago';

export function aUser(over: Partial<User> = {}): User {
  return User.parse({
    id: 'u-1',
    stytch_user_id: 'user-test-1',
    phone: '+16155550142',
    first_name: 'Sam',
    last_name: 'Rivera',
    email: 'sam@example.com',
    birthday: '1990-04-12',
    address_line1: '100 Broadway',
    address_line2: null,
    city: 'Nashville',
    state: 'TN',
    zip_code: '37203',
    country: 'us',
    license_name: null,
    license_number: null,
    license_expiration: null,
    license_status: null,
    created_at: '2030-01-05T15:00:00.000Z',
    ...over,
  });
}

export const aModel = (over: Partial<VehicleModel> = {}): VehicleModel =>
  VehicleModel.parse({
    name: 'Model Y',
    type: 'SUV',
    seating_capacity: 5,
    drivetrain: 'AWD',
    mile_range: 310,
    zero_to_sixty_mph_seconds: 4.8,
    top_speed_mph: 135,
    public_image_link: '/media/model-y.png',
    ...over,
  });

export const NASHVILLE_LOT: Location = Location.parse({
  id: 11,
  name: 'Nashville Downtown Lot',
  street: '200 Broadway',
  city: 'Nashville',
  state: 'TN',
  zip_code: '37203',
  latitude: 36.16,
  longitude: -86.78,
  timezone: CHICAGO,
  is_airport: false,
  region_id: 3,
  pickup_instructions_html: '<p>Level 2</p>',
  return_instructions_html: '<p>Level 2</p>',
  tax_rate_ppm: 92_500,
  min_reservation_buffer_hours: null,
});

let nextTx = 1;
/** One line item, Pending unless told. */
export function aTransaction(over: Partial<Transaction> & Pick<Transaction, 'category' | 'amount'>): Transaction {
  return {
    id: `tx-${nextTx++}`,
    status: 'Pending',
    description: '',
    cost: over.amount,
    captured_amount: 0,
    discount_amount: 0,
    number_of_days: null,
    effective_date: null,
    initiated_at: '2030-03-01T16:00:00.000Z',
    released_at: null,
    card_last_4: null,
    stripe_payment_intent_id: null,
    stripe_reserve_applied_payment_intent_id: null,
    addon: null,
    ...over,
  };
}

/** Rack days from `first` (YYYY-MM-DD), one row each, as the server writes them. */
export function rackDays(first: string, days: number, cents: number, over: Partial<Transaction> = {}): Transaction[] {
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(`${first}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() + i);
    return aTransaction({
      category: 'Rack',
      amount: cents,
      number_of_days: 1,
      effective_date: date.toISOString().slice(0, 10),
      ...over,
    });
  });
}

/**
 * A new booking (Started), signed, not yet paid: 3 days of a $89.00/day Model Y in Nashville from
 * 10:00 on 10 March 2031, sales tax, and the deposit row (no hold yet). Free cancellation is open.
 */
export function aTrip(over: Partial<Reservation> = {}): Reservation {
  const rack = rackDays('2031-03-10', 3, 8_900);
  return Reservation.parse({
    id: 'r-1',
    platform_id: 'AMP-TEST-0001',
    status: 'Started',
    pickup_at: '2031-03-10T15:00:00.000Z',
    return_at: '2031-03-13T15:00:00.000Z',
    timezone: CHICAGO,
    created_at: '2031-03-01T16:00:00.000Z',
    vehicle: {
      vin: '5YJYGDEE1LF000001',
      year: 2030,
      color: 'WHITE',
      odometer: 12_000,
      rack_rate: 8_900,
      battery_type: 'Long Range',
      images: [],
      model: aModel(),
    },
    pickup_location: NASHVILLE_LOT,
    dropoff_location: NASHVILLE_LOT,
    payment_balance: 26_700 + 2_470,
    payment_method: null,
    damage_waiver: false,
    rental_type: 'LEISURE',
    discount_code: null,
    is_eligible: null,
    transactions: [
      ...rack,
      aTransaction({ category: 'Tax', amount: 2_470 }),
      aTransaction({ category: 'Deposit', amount: 20_000 }),
    ],
    agreements: [
      {
        id: 'ag-1',
        type: 'RENTAL_AGREEMENT',
        platform_id: 'AMP-TEST-0001',
        signature: 'Sam Rivera',
        date: '2031-03-01',
        rental_type: 'LEISURE',
        created_at: '2031-03-01T16:05:00.000Z',
      },
    ],
    insurance_verifications: [],
    requested_change: null,
    last_change: null,
    can_cancel: true,
    free_cancellation_until: '2031-03-09T15:00:00.000Z',
    cancel_reason: null,
    key: null,
    rides: [],
    ...over,
  });
}

/** The sandbox gateway's secrets for a new booking's charge and deposit hold. */
export const sandboxSecrets = (over: Partial<PaymentSecrets> = {}): PaymentSecrets =>
  PaymentSecrets.parse({
    provider: 'sandbox',
    client_secret: 'pi_charge_secret_1',
    publishable_key: null,
    deposit_client_secret: 'pi_deposit_secret_1',
    ...over,
  });

export const aSavedCard = (over: Partial<SavedCard> = {}): SavedCard =>
  SavedCard.parse({ id: 'pm_saved_4242', card_brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2040, ...over });

export function aVehicle(over: Partial<Vehicle> = {}): Vehicle {
  return Vehicle.parse({
    vin: '5YJYGDEE1LF000001',
    year: 2030,
    color: 'WHITE',
    odometer: 12_000,
    rack_rate: 8_900,
    is_self_serve_booking_allowed: true,
    platform_id: 'veh-1',
    battery_type: 'Long Range',
    images: [],
    model: aModel(),
    location: NASHVILLE_LOT,
    availability: {},
    busy: [],
    own_booking: null,
    ...over,
  });
}

export const anAddon = (over: Partial<Addon> = {}): Addon =>
  Addon.parse({
    id: 'collision-protection',
    type: 'DAMAGE_WAIVER',
    name: 'Collision Protection',
    description: 'Covers damage to the car.',
    amount: 2_500,
    charge_frequency: 'DAY',
    category: 'protection',
    ...over,
  });

export const aPlace = (over: Partial<SearchOption> = {}): SearchOption =>
  SearchOption.parse({
    id: 7,
    query: 'Nashville, TN',
    type: 'CITY',
    latitude: 36.16,
    longitude: -86.78,
    timezone: CHICAGO,
    min_reservation_buffer_hours: null,
    region_id: 3,
    ...over,
  });
