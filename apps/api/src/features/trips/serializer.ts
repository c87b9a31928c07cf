import type { Kysely } from 'kysely';
import { canCancel, freeCancellationDeadline, hasDamageWaiver, paymentBalance } from '@ampere/domain/booking';
import type { ImageView } from '@ampere/domain/constants';
import { itemRank } from '@ampere/domain/line-items';
import { TRIP_NOT_FOUND_MESSAGE } from '@ampere/domain/contract/booking';
import type { DigitalKey, Reservation, Transaction } from '@ampere/domain/contract/booking';
import type { Database } from '../../db/schema.ts';
import type { LastStatement } from '../../db/transact.ts';
import { notFound } from '../../http/errors.ts';
import { digitalKeySecret, liveKeysBy } from '../keys/repository.ts';
import { imageUrl } from '../media/paths.ts';
import * as repo from './repository.ts';

/** Said for a trip that is not the renter's, whether or not it exists for someone else. */
export const TRIP_NOT_FOUND = TRIP_NOT_FOUND_MESSAGE;

const iso = (d: Date | string) => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

type VehicleRow = Awaited<ReturnType<typeof repo.vehiclesByIds>>[number];
type LocationRow = Awaited<ReturnType<typeof repo.locationsByIds>>[number];
/** Times as Dates, or as ISO text when the row came inside a JSON sub-select (`repo.findTrip`). */
type Timed<T> = { [K in keyof T]: Date extends T[K] ? Exclude<T[K], Date> | Date | string : T[K] };
type TransactionRow = Timed<Awaited<ReturnType<typeof repo.transactionsFor>>[number]>;
type AgreementRow = Timed<Awaited<ReturnType<typeof repo.agreementsFor>>[number]>;
type RideRow = Timed<Awaited<ReturnType<typeof repo.ridesFor>>[number]>;

export interface ReservationParts {
  vehicle: VehicleRow;
  images: { view: ImageView; image_url: string }[];
  pickupLocation: LocationRow;
  dropoffLocation: LocationRow;
  transactions: TransactionRow[];
  agreements: AgreementRow[];
  insuranceVerifications: { id: string; status: string }[];
  lastCard: string | null;
  key: DigitalKey | null;
  ride: RideRow | null;
}

/** A line item row as the API contract's Transaction. */
export function toTransaction(t: TransactionRow): Transaction {
  return {
    id: t.id,
    category: t.category,
    status: t.status,
    description: t.description,
    cost: t.cost,
    amount: t.amount,
    captured_amount: t.captured_amount,
    discount_amount: t.discount_amount,
    number_of_days: t.number_of_days,
    effective_date: t.effective_date,
    initiated_at: iso(t.initiated_at),
    released_at: isoOrNull(t.released_at),
    card_last_4: t.card_last_4,
    stripe_payment_intent_id: t.payment_intent_id,
    stripe_reserve_applied_payment_intent_id: t.reserve_applied_intent_id,
    addon: t.addon_id && t.addon_type ? { id: t.addon_id, type: t.addon_type, amount: t.addon_amount ?? t.cost } : null,
  };
}

function sortTransactions(list: Transaction[]): Transaction[] {
  return (
    list
      .map((t, i) => ({ t, i }))
      // Spec 4's order of items (the domain's), then by day.
      .sort(
        (a, b) =>
          itemRank(a.t.category) - itemRank(b.t.category) ||
          (a.t.effective_date ?? '').localeCompare(b.t.effective_date ?? '') ||
          a.i - b.i,
      )
      .map(({ t }) => t)
  );
}

const toLocation = (l: LocationRow) => ({
  id: l.id,
  name: l.name,
  street: l.street,
  city: l.city,
  state: l.state,
  zip_code: l.zip_code,
  latitude: l.latitude,
  longitude: l.longitude,
  timezone: l.timezone,
  pickup_instructions_html: l.pickup_instructions_html,
  return_instructions_html: l.return_instructions_html,
  tax_rate_ppm: l.tax_rate_ppm,
});

/** A trip's ride (spec 3): the car's odometer and battery as it went out and came back. */
export function toRide(ride: RideRow): Reservation['rides'][number] {
  return {
    vin: ride.vin,
    mileage_in: ride.mileage_in,
    mileage_out: ride.mileage_out,
    battery_in: ride.battery_in,
    battery_out: ride.battery_out,
    vehicle_pickup_at: iso(ride.vehicle_pickup_at),
    vehicle_return_at: isoOrNull(ride.vehicle_return_at),
  };
}

/**
 * A reservation row and what belongs to it, as the API contract's Reservation. `now` is the
 * server's clock: what the trip allows at this moment is judged here, never by the browser.
 */
export function toReservation(row: repo.ReservationRow, parts: ReservationParts, now: Date): Reservation {
  const v = parts.vehicle;
  const transactions = sortTransactions(parts.transactions.map(toTransaction));
  const status = row.status;
  return {
    // Spec 3: the reservation's id is its dash-separated platform id; the internal uuid stays inside.
    id: row.platform_id,
    platform_id: row.platform_id,
    status,
    pickup_at: iso(row.pickup_at),
    return_at: iso(row.return_at),
    timezone: row.timezone,
    created_at: iso(row.created_at),
    vehicle: {
      vin: v.vin,
      year: v.year,
      color: v.color,
      odometer: v.odometer,
      rack_rate: v.rack_rate,
      battery_type: v.battery_type,
      images: parts.images.map((i) => ({ view: i.view, image_url: i.image_url })),
      model: {
        name: v.model_name,
        type: v.model_type,
        seating_capacity: v.seating_capacity,
        drivetrain: v.drivetrain,
        mile_range: v.mile_range,
        zero_to_sixty_mph_seconds: v.zero_to_sixty_mph_seconds,
        top_speed_mph: v.top_speed_mph,
        public_image_link: imageUrl(v.model_slug, 'WHITE', 'MONEYSHOT'),
      },
    },
    pickup_location: toLocation(parts.pickupLocation),
    dropoff_location: toLocation(parts.dropoffLocation),
    payment_balance: paymentBalance(transactions),
    payment_method: parts.lastCard ? { card_brand: null, last4: parts.lastCard } : null,
    damage_waiver: hasDamageWaiver(transactions),
    rental_type: row.rental_type,
    discount_code: row.discount_code,
    is_eligible: row.is_eligible,
    transactions,
    agreements: parts.agreements.map((a) => ({
      id: a.id,
      type: a.type,
      platform_id: row.platform_id,
      signature: a.signature,
      date: a.signed_on,
      rental_type: a.rental_type,
      created_at: iso(a.created_at),
    })),
    insurance_verifications: parts.insuranceVerifications.map((i) => ({ id: i.id, status: i.status })),
    requested_change:
      row.requested_return_at || row.requested_pickup_at
        ? {
            pickup_at: iso(row.requested_pickup_at ?? row.pickup_at),
            return_at: iso(row.requested_return_at ?? row.return_at),
            requested_at: iso(row.change_requested_at ?? row.created_at),
          }
        : null,
    last_change:
      row.dates_changed_at && row.changed_from_pickup_at && row.changed_from_return_at
        ? {
            pickup_at: iso(row.changed_from_pickup_at),
            return_at: iso(row.changed_from_return_at),
            changed_at: iso(row.dates_changed_at),
          }
        : null,
    can_cancel: canCancel({ status, pickup_at: row.pickup_at, timezone: row.timezone }, now),
    free_cancellation_until: iso(freeCancellationDeadline(row.pickup_at, row.timezone)),
    cancel_reason: status === 'Canceled' ? row.cancel_reason : null,
    key: parts.key,
    rides: parts.ride ? [toRide(parts.ride)] : [],
  };
}

function groupBy<T, K>(items: readonly T[], key: (t: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

/**
 * Each row's parts, found in `parts` (read with it), with the trip's key signed with the server's
 * secret.
 */
function partsOf(parts: repo.TripParts, secret: Buffer): (row: repo.ReservationRow) => ReservationParts {
  const { vehicles, locations, transactions, agreements, insurance, cards, rides } = parts;
  const keys = liveKeysBy(secret, parts.keys);
  const rideBy = new Map(rides.map((r) => [r.reservation_id, r]));
  const vehicleById = new Map(vehicles.map((v) => [v.id, v]));
  const locationById = new Map(locations.map((l) => [l.id, l]));
  const txBy = groupBy(transactions, (t) => t.reservation_id);
  const agreementsBy = groupBy(agreements, (a) => a.reservation_id);
  const cardBy = new Map<string, string>();
  for (const c of cards)
    if (c.card_last_4 && !cardBy.has(c.reservation_id)) cardBy.set(c.reservation_id, c.card_last_4);
  return (row) => {
    const vehicle = vehicleById.get(row.vehicle_id)!;
    return {
      vehicle,
      images: vehicle.images,
      pickupLocation: locationById.get(row.pickup_location_id)!,
      dropoffLocation: locationById.get(row.dropoff_location_id)!,
      transactions: txBy.get(row.id) ?? [],
      agreements: agreementsBy.get(row.id) ?? [],
      insuranceVerifications: insurance.filter(
        (i) => i.reservation_id === row.id || (i.reservation_id === null && i.user_id === row.user_id),
      ),
      lastCard: cardBy.get(row.id) ?? null,
      key: keys.get(row.id) ?? null,
      ride: rideBy.get(row.id) ?? null,
    };
  };
}

/** Trips read with their parts in one statement (`repo.findTrip` and the like), as they stand at `now`. */
function serializeTrips(trips: readonly repo.TripRow[], secret: Buffer, now: Date): Reservation[] {
  return trips.map(({ row, parts }) => toReservation(row, partsOf(parts, secret)(row), now));
}

/** All of the renter's trips, by pickup, each read with its parts: one statement. */
export async function reservationsOfRenter(db: repo.Db, userId: string, now: Date): Promise<Reservation[]> {
  const [trips, secret] = await Promise.all([repo.listTrips(db, userId), digitalKeySecret(db)]);
  return serializeTrips(trips, secret, now);
}

/**
 * One of the renter's trips by platform id, as the API returns it: its row and its parts in one
 * statement. Another renter's trip, or an unknown id, is a 404 'No trip with that id.' — the same
 * answer, so ids cannot be probed.
 */
export async function getReservationForRenter(
  db: Kysely<Database>,
  userId: string,
  platformId: string,
  now: Date,
): Promise<Reservation> {
  const [trip, secret] = await Promise.all([repo.findTrip(db, userId, platformId), digitalKeySecret(db)]);
  if (!trip) throw notFound(TRIP_NOT_FOUND, 'platform_id');
  return serializeTrips([trip], secret, now)[0]!;
}

/** The same by internal id, inside a transaction that already checked ownership. */
export async function reservationById(db: repo.Db, reservationId: string, now: Date): Promise<Reservation> {
  const [trip, secret] = await Promise.all([repo.findTripById(db, reservationId), digitalKeySecret(db)]);
  return serializeFound(trip, secret, now);
}

/**
 * `reservationById` as the last statement of the transaction `trx` (decision 110): read with the
 * commit, and answered once the transaction has committed.
 */
export async function lastReservationById(
  trx: repo.Db,
  reservationId: string,
  now: Date,
): Promise<LastStatement<Reservation>> {
  const secret = await digitalKeySecret(trx);
  return repo.lastTripById(trx, reservationId, (trip) => serializeFound(trip, secret, now));
}

function serializeFound(trip: repo.TripRow | undefined, secret: Buffer, now: Date): Reservation {
  if (!trip) throw notFound(TRIP_NOT_FOUND, 'platform_id');
  return serializeTrips([trip], secret, now)[0]!;
}
