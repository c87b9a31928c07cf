import { FEE_CATALOGUE } from '@ampere/domain/fees';
import type { Kysely } from 'kysely';
import { normalizePhone } from '@ampere/domain/phone';
import type { DayTrip, LookupResult, TimelineEvent, TodayBoard, TripTimeline } from '@ampere/domain/contract/ops-day';
import {
  LOW_BATTERY_PERCENT,
  type LookupKind,
  OVERDUE_GRACE_MINUTES,
  PICKUP_SOON_HOURS,
  dayWindows,
  isLowBattery,
  lookupKinds,
} from '@ampere/domain/day';
import { inspectionTimeline } from '@ampere/domain/inspections';
import { formatTotal } from '@ampere/domain/money';
import { PAGE_PATTERNS } from '@ampere/domain/pages';
import { STAFF_ACTIONS, type StaffAction } from '@ampere/domain/staff';
import { toLocal } from '@ampere/domain/time';
import { insuranceVerificationRequired, licenseVerificationRequired } from '@ampere/domain/verification';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import type { OpsContext } from '../../http/ops-route.ts';
import * as repo from './repository.ts';

/** An instant on a location's clock, as the board shows it: '2026-11-27 09:00'. */
function local(at: Date, timeZone: string): string {
  const l = toLocal(at, timeZone);
  return `${l.date} ${l.time}`;
}

type Row = repo.DayTripRow;

/** Whether each renter has an active or waived insurance connection, for 'unverified'. */
async function insuranceByRenter(db: Kysely<Database>, rows: Row[]) {
  const ids = [...new Set(rows.map((r) => r.user_id).filter((id): id is string => id !== null))];
  const states = await repo.insuranceStates(db, ids);
  const byUser = new Map<string, { status: string }[]>();
  for (const s of states) byUser.set(s.user_id, [...(byUser.get(s.user_id) ?? []), s]);
  return (userId: string | null) => (userId ? (byUser.get(userId) ?? []) : []);
}

function toDayTrip(r: Row, insurance: (userId: string | null) => { status: string }[]): DayTrip {
  const timeZone = r.location_timezone;
  const problems: DayTrip['problems'] = [];
  const upcoming = r.status === 'Started' || r.status === 'Pending';
  if (r.status === 'Started') problems.push('unpaid');
  if (
    upcoming &&
    (r.user_id === null ||
      licenseVerificationRequired(
        r.license_number === null && !r.license_override
          ? null
          : {
              license_number: r.license_number,
              license_status: r.license_status,
              license_expiration: r.license_expiration,
              license_override: r.license_override,
            },
        { return_at: r.return_at, timezone: r.timezone },
      ) ||
      insuranceVerificationRequired(insurance(r.user_id)))
  )
    problems.push('unverified');
  return {
    tripId: r.id,
    reference: r.platform_id,
    status: r.status,
    pickupAt: r.pickup_at.toISOString(),
    returnAt: r.return_at.toISOString(),
    pickupLocal: local(r.pickup_at, timeZone),
    returnLocal: local(r.return_at, timeZone),
    renter: r.user_id
      ? {
          id: r.user_id,
          name: [r.first_name, r.last_name].filter(Boolean).join(' ') || r.phone!,
          phone: r.phone!,
          email: r.email,
        }
      : null,
    car: { vin: r.vin, model: r.model_name, color: r.color, year: r.year },
    problems,
  };
}

/**
 * GET /today: a location's day on its own clock (decision 086). Pickups today and tomorrow,
 * returns due today, returns overdue past the grace, cars charged below the threshold before a
 * pickup today or tomorrow, and trips picking up within the soon window that are unpaid or whose
 * renter is not verified. A location the staff member does not work at is a 404.
 */
export async function todayBoard(db: Kysely<Database>, locationId: string, ops: OpsContext): Promise<TodayBoard> {
  const missing = `No location ${locationId} in your locations.`;
  ops.requireInScope(locationId, missing);
  const location = await repo.findLocation(db, Number(locationId));
  if (!location) throw notFound(missing, 'locationId');
  const now = ops.now;
  const w = dayWindows(now, location.timezone);
  const [pickups, returnsToday, overdue] = await Promise.all([
    repo.pickupsBetween(db, location.id, w.todayStart, w.dayAfterStart),
    repo.returnsBetween(db, location.id, w.todayStart, w.tomorrowStart),
    repo.overdueReturns(db, location.id, w.overdueBefore),
  ]);
  // Pickups still to come today and tomorrow: the soon window (now + 24 h) ends before the day after.
  const ahead = pickups.filter((r) => r.status !== 'On Rent' && r.pickup_at.getTime() >= now.getTime());
  const soon = ahead.filter((r) => r.pickup_at.getTime() < w.soonUntil.getTime());
  const [insurance, batteries] = await Promise.all([
    insuranceByRenter(db, soon),
    repo.batteryLevels(db, [...new Set(ahead.map((r) => r.vehicle_id))]),
  ]);
  const percent = new Map(batteries.map((b) => [b.vehicle_id, Math.round(Number(b.battery_level) * 100)]));
  const nextPickup = new Map<number, Row>();
  for (const r of ahead) if (!nextPickup.has(r.vehicle_id)) nextPickup.set(r.vehicle_id, r);
  const low = [...nextPickup.values()].filter(
    (r) => percent.has(r.vehicle_id) && isLowBattery(percent.get(r.vehicle_id)!),
  );
  const day = (rows: Row[]) => rows.map((r) => toDayTrip(r, insurance));
  const tomorrowStart = w.tomorrowStart.getTime();
  return {
    location: { id: String(location.id), name: location.name, timezone: location.timezone },
    today: w.today,
    tomorrow: w.tomorrow,
    now: now.toISOString(),
    rules: {
      lowBatteryPercent: LOW_BATTERY_PERCENT,
      overdueGraceMinutes: OVERDUE_GRACE_MINUTES,
      pickupSoonHours: PICKUP_SOON_HOURS,
    },
    pickupsToday: day(pickups.filter((r) => r.pickup_at.getTime() < tomorrowStart)),
    pickupsTomorrow: day(pickups.filter((r) => r.pickup_at.getTime() >= tomorrowStart)),
    returnsToday: day(returnsToday),
    overdue: day(overdue),
    lowBattery: low.map((r) => ({
      car: { vin: r.vin, model: r.model_name, color: r.color, year: r.year },
      batteryPercent: percent.get(r.vehicle_id)!,
      nextPickupAt: r.pickup_at.toISOString(),
      nextPickupLocal: local(r.pickup_at, location.timezone),
      tripId: r.id,
      reference: r.platform_id,
    })),
    needsAttention: day(soon).filter((t) => t.problems.length > 0),
  };
}

/** The locations a lookup may see: the staff member's, as the ids trips carry. */
function lookupScope(ops: OpsContext): number[] | 'all' {
  const ids = ops.staff.locationIds;
  return ids === 'all' ? 'all' : ids.filter((id) => /^\d{1,9}$/.test(id)).map(Number);
}

/**
 * GET /lookup: trips by trip id or reference, renter phone (any way it is written), email, name,
 * or VIN (its start or end, else any part of it), within the staff member's locations; newest pickup first.
 */
export async function lookupTrips(db: Kysely<Database>, q: string, ops: OpsContext): Promise<LookupResult> {
  const scope = lookupScope(ops);
  const kinds = lookupKinds(q);
  const tried: LookupKind[] = [];
  const found = new Map<string, { row: Row; matchedBy: LookupKind }>();
  const searches = kinds.map(async (kind) => {
    let rows: Row[] = [];
    if (kind === 'trip') rows = await repo.tripsByIdOrReference(db, scope, q);
    else if (kind === 'email') rows = await repo.tripsByEmail(db, scope, q);
    else if (kind === 'vin') {
      rows = await repo.tripsByVin(db, scope, q);
      // Neither the VIN's start nor its end: a part from its middle (a scan, so only then).
      if (rows.length === 0 && q.replace(/\W/g, '').length >= 5) rows = await repo.tripsByVinPart(db, scope, q);
    } else if (kind === 'name') rows = await repo.tripsByName(db, scope, q);
    else {
      const e164 = phoneE164(q);
      if (e164) rows = await repo.tripsByPhone(db, scope, e164);
    }
    tried.push(kind);
    return { kind, rows };
  });
  for (const { kind, rows } of await Promise.all(searches))
    for (const row of rows) if (!found.has(row.id)) found.set(row.id, { row, matchedBy: kind });
  const rows = [...found.values()].sort((a, b) => b.row.pickup_at.getTime() - a.row.pickup_at.getTime());
  const insurance = await insuranceByRenter(
    db,
    rows.map((f) => f.row),
  );
  return {
    q,
    triedAs: kinds.filter((k) => tried.includes(k)),
    items: rows.map(({ row, matchedBy }) => ({
      ...toDayTrip(row, insurance),
      location: { id: String(row.pickup_location_id), name: row.location_name, timezone: row.location_timezone },
      matchedBy,
    })),
  };
}

/**
 * A phone number written any way, in E.164 (a US number without its country code, as renters
 * sign in); from any country, as the lookup searches every renter. Null when it is no number.
 */
function phoneE164(text: string): string | null {
  const check = normalizePhone(text);
  if (check.ok) return check.e164;
  if (check.reason !== 'country' || !check.country) return null;
  const abroad = normalizePhone(text, [check.country]);
  return abroad.ok ? abroad.e164 : null;
}

const money = (cents: number) => formatTotal(cents);
const actionName = (action: string) => STAFF_ACTIONS[action as StaffAction] ?? action;

/**
 * GET /trips/:tripId/timeline: everything recorded about a trip, oldest first — its booking,
 * payments and refunds, the renter's verifications, keys and what they did, changes of dates,
 * the ride, fees, messages and staff actions — with a link to the renter's own page of it.
 */
export async function tripTimeline(db: Kysely<Database>, tripId: string, ops: OpsContext): Promise<TripTimeline> {
  const trip = await repo.tripForTimeline(db, tripId);
  const missing = `No trip ${tripId} in your locations.`;
  if (!trip) throw notFound(missing, 'tripId');
  if (!ops.inScope(String(trip.pickup_location_id)) && !ops.inScope(String(trip.dropoff_location_id)))
    ops.requireInScope(String(trip.pickup_location_id), missing);
  const tz = trip.location_timezone;
  const parts = await repo.timelineParts(db, trip);
  const events: TimelineEvent[] = [];
  const add = (
    at: Date | null | undefined,
    kind: TimelineEvent['kind'],
    title: string,
    detail: string | null = null,
  ) => {
    if (at) events.push({ at: at.toISOString(), kind, title, detail });
  };
  add(trip.created_at, 'booking', 'Booked', `${local(trip.pickup_at, tz)} to ${local(trip.return_at, tz)}`);
  add(trip.confirmed_at, 'booking', 'Paid and confirmed');
  add(
    trip.change_requested_at,
    'change',
    'Change of dates asked',
    changeDetail(trip.requested_pickup_at, trip.requested_return_at, tz),
  );
  add(
    trip.dates_changed_at,
    'change',
    'Dates changed',
    trip.changed_from_pickup_at && trip.changed_from_return_at
      ? `From ${local(trip.changed_from_pickup_at, tz)} – ${local(trip.changed_from_return_at, tz)} to ${local(trip.pickup_at, tz)} – ${local(trip.return_at, tz)}`
      : null,
  );
  add(trip.on_rent_at, 'ride', 'Trip started (on rent)');
  add(trip.late_flagged_at, 'ride', 'Flagged as not returned on time');
  add(trip.returned_at, 'ride', 'Trip ended by the renter');
  add(trip.canceled_at, 'booking', 'Cancelled', trip.cancel_reason ? `Reason: ${trip.cancel_reason}` : null);
  for (const p of parts.payments)
    add(
      p.created_at,
      'payment',
      p.kind === 'DEPOSIT_HOLD' ? `Deposit hold of ${money(p.amount)}` : `Charge of ${money(p.amount)}`,
      [
        `status ${p.status}`,
        p.card_last_4 ? `card ending ${p.card_last_4}` : null,
        p.amount_refunded ? `${money(p.amount_refunded)} refunded` : null,
      ]
        .filter(Boolean)
        .join(', '),
    );
  for (const r of parts.refunds)
    add(r.refunded_at ?? r.created_at, 'payment', `Refund of ${money(r.amount)}`, r.reason);
  for (const l of parts.lines)
    add(
      l.initiated_at,
      l.category === 'Addon' ? 'booking' : 'fee',
      `${l.description}: ${money(l.amount)}`,
      `${l.category}, ${l.status}`,
    );
  for (const k of parts.keys) {
    add(k.created_at, 'key', 'Digital key issued', `valid ${local(k.valid_from, tz)} to ${local(k.valid_until, tz)}`);
    add(k.revoked_at, 'key', 'Digital key revoked');
  }
  for (const c of parts.commands) add(c.created_at, 'key', `Key: ${c.command.toLowerCase()}`, c.result);
  if (parts.ride) {
    const r = parts.ride;
    add(r.vehicle_pickup_at, 'ride', 'Car picked up', rideDetail(r.mileage_out, r.battery_out));
    add(r.vehicle_return_at, 'ride', 'Car returned', rideDetail(r.mileage_in, r.battery_in));
  }
  for (const m of parts.messages)
    add(
      m.sent_at ?? m.created_at,
      'message',
      `${m.channel === 'sms' ? 'Text' : 'Email'}: ${m.kind}`,
      [m.subject, m.status].filter(Boolean).join(' — '),
    );
  for (const v of parts.identity) {
    add(v.created_at, 'verification', 'License check started');
    add(v.decided_at, 'verification', `License check ${v.status}`, v.reason);
  }
  for (const i of parts.insurance) add(i.created_at, 'verification', `Insurance ${i.status}`, i.carrier);
  for (const s of parts.staff)
    add(
      s.at,
      'staff',
      summaryOf(s.after) ?? actionName(s.action),
      [s.staff_name, s.staff_role].filter(Boolean).join(', ') || null,
    );
  for (const n of parts.notes) {
    add(n.created_at, 'support', `Support note: ${n.title}`, n.detail);
    add(n.resolved_at, 'support', `Support note closed: ${n.title}`);
  }
  for (const i of parts.inspections) inspectionTimeline(i).forEach((e) => add(e.at, 'inspection', e.title, e.detail));
  // Charges after the trip: the renter's disputes, their outcomes, and staff refunds (decisions 091, 093).
  const after = await repo.moneyTimelineParts(db, trip.id);
  for (const d of after.disputes) {
    const label = `${FEE_CATALOGUE[d.fee_type].label} of ${money(d.amount)}`;
    add(d.opened_at, 'fee', `Charge disputed: ${label}`, d.renter_text);
    add(d.decided_at, 'fee', `Dispute ${d.outcome ?? ''}: ${label}`, d.staff_reason);
  }
  for (const r of after.refunds) add(r.created_at, 'payment', `Refund of ${money(r.amount)} by staff`, r.reason);
  events.sort((a, b) => a.at.localeCompare(b.at));
  const insurance = await insuranceByRenter(db, [trip]);
  return {
    trip: {
      ...toDayTrip(trip, insurance),
      location: { id: String(trip.pickup_location_id), name: trip.location_name, timezone: tz },
      renterViewUrl: PAGE_PATTERNS.trip.detail.replace(':id', encodeURIComponent(trip.platform_id)),
    },
    events,
  };
}

/** A staff action's own words for what it did, when its audit record gives them (a key paused, a car locked). */
function summaryOf(after: unknown): string | null {
  const summary = (after as { summary?: unknown } | null)?.summary;
  return typeof summary === 'string' ? summary : null;
}

function changeDetail(pickup: Date | null, ret: Date | null, tz: string): string | null {
  return pickup && ret ? `To ${local(pickup, tz)} – ${local(ret, tz)}` : null;
}

function rideDetail(miles: number | null, battery: number | null): string | null {
  const bits = [miles !== null ? `${miles} mi` : null, battery !== null ? `battery ${battery}%` : null].filter(Boolean);
  return bits.length ? bits.join(', ') : null;
}
