import type { Kysely, Transaction } from 'kysely';
import type { DateChangeBody, ReservationCreateBody } from '@ampere/domain/contract/booking';
import type { KeyAction } from '@ampere/domain/verification';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import type { AnalyticsSink } from '../analytics/sink.ts';
import type { MessageRecorder } from '../messages/record.ts';
import type { PaymentGateway } from '../payments/gateway.ts';
import { chargesRetiredIn } from '../payments/repository.ts';
import type { Realtime } from '../realtime/service.ts';
import type { VehicleAccess } from '../vehicle-access/provider.ts';
import { conflictCheck, createReservation } from './book.ts';
import { cancelReservation } from './cancel.ts';
import { discardDateChange, previewDateChange, requestDateChange } from './change-dates.ts';
import {
  cancelRetiredCharges,
  cancelRetiredChargesLeaving,
  confirmAfterPayment,
  payForReservation,
} from './checkout.ts';
import { applyDiscount } from './discount.ts';
import { endTrip } from './end-trip.ts';
import { previewEndTrip } from './end-trip-preview.ts';
import { issueKeyIfReady, issueKeysOfRenter, keyAction } from './keys.ts';
import { changeAddons, syncUnderageFeesOfRenter } from './line-items.ts';
import { checkEligibility, getReservation, listReservations } from './service.ts';
import { type SyncDeps, makeDueRefunds } from './sync.ts';

/** What the trips feature is built from: the database and clock, and the providers the app decorates. */
export interface TripDeps {
  db: Kysely<Database>;
  clock: Clock;
  gateway: PaymentGateway;
  /** Vehicle search, told when a trip's dates or status change. */
  searchIndex: { markStale(): void };
  /** The car: read at pickup and return. */
  access: VehicleAccess;
  /** The renter's open pages, told when a payment moves or a job changes their trip. */
  realtime: Pick<Realtime, 'publish' | 'publishAll'>;
  /** Server-side analytics (decision 033): paid_and_verified. */
  analytics?: AnalyticsSink;
  /** The renter's texts and emails about the trip, recorded with the events that cause them (decision 070). */
  messages?: MessageRecorder;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/**
 * The one door to a trip's life (decision 057): every route, webhook and job that books, pays,
 * changes, cancels or ends a trip, or issues its key, goes through this. The features below
 * (payments, keys, discounts, users) never call up into it; the few that must act on a trip at run
 * time (a birthday that changes the underage fee) reach it as `app.trips`.
 */
export function createTrips(deps: TripDeps) {
  const { db, clock, gateway, searchIndex, access, log, messages } = deps;
  const keyDeps = { db, clock, analytics: deps.analytics, log, messages };
  /** What payments are brought up to date with: a paid, verified trip may now get its key. */
  const payments: SyncDeps = {
    db,
    gateway,
    clock,
    searchIndex,
    publish: (userId, notices) => deps.realtime.publishAll(userId, notices),
    afterPayment: async (reservationId) => void (await issueKeyIfReady(keyDeps, reservationId)),
    messages,
    log,
  };
  // Changing a trip's line items retires its unpaid charge; this cancels it at the provider after commit.
  const cancelRetired = async (userId: string) =>
    void (await cancelRetiredCharges({ db, gateway, clock, log }, { userId }));
  // A cancelled trip's hold is released and its charges refunded; the provider's answers to both are
  // brought up to date in one sync of the trip.
  const releaseAndRefund = async (userId: string, reservationId: string) => {
    const syncDeps = { db, gateway, clock, searchIndex, log };
    void (await makeDueRefunds(
      syncDeps,
      reservationId,
      await cancelRetiredChargesLeaving(syncDeps, userId, reservationId),
    ));
  };
  const changeDeps = { db, clock, searchIndex, cancelRetired };
  const endTripDeps = {
    db,
    clock,
    access,
    payments,
    searchIndex,
    cancelRetired,
    analytics: deps.analytics,
    messages,
    log,
  };
  type CreateBody = z.output<typeof ReservationCreateBody>;

  return {
    payments,
    cancelRetired,
    /** What the jobs (jobs.ts) are given. */
    jobDeps: { db, clock, searchIndex, cancelRetired, access, payments, messages, log },

    /** Books a car; `writeTo` is the idempotent route's transaction when the request carries a key. */
    book: (userId: string, body: CreateBody, writeTo: Kysely<Database> = db) =>
      createReservation({ db: writeTo, clock, searchIndex, cancelRetired }, userId, body),
    list: (userId: string) => listReservations({ db, clock }, userId),
    get: (userId: string, platformId: string) => getReservation({ db, clock }, userId, platformId),
    conflictCheck: (userId: string, body: Parameters<typeof conflictCheck>[2]) => conflictCheck(db, userId, body),
    setAddons: async (userId: string, platformId: string, addonIds: readonly string[]) => {
      const { reservation, retired } = await changeAddons({ db, clock }, userId, platformId, addonIds);
      if (retired) await cancelRetired(userId);
      return reservation;
    },
    applyDiscount: async (userId: string, input: { code: string; platform_id: string }) => {
      const reservation = await applyDiscount({ db, clock }, userId, input);
      await cancelRetired(userId);
      return reservation;
    },
    checkEligibility: (userId: string, platformId: string) => checkEligibility({ db, clock }, userId, platformId),
    cancel: (userId: string, platformId: string) =>
      cancelReservation({ db, clock, searchIndex, releaseAndRefund, messages, log }, userId, platformId),
    previewChange: (userId: string, platformId: string, body: DateChangeBody) =>
      previewDateChange(changeDeps, userId, platformId, body),
    requestChange: (userId: string, platformId: string, body: DateChangeBody) =>
      requestDateChange(changeDeps, userId, platformId, body),
    discardChange: (userId: string, platformId: string) => discardDateChange(changeDeps, userId, platformId),
    previewEnd: (userId: string, platformId: string) => previewEndTrip(endTripDeps, userId, platformId),
    end: (userId: string, platformId: string) => endTrip(endTripDeps, userId, platformId),
    pay: (userId: string, platformId: string) => payForReservation(payments, userId, platformId),
    confirmPayment: (userId: string, platformId: string) => confirmAfterPayment(payments, userId, platformId),
    keyAction: (userId: string, platformId: string, action: KeyAction) =>
      keyAction({ db, clock }, userId, platformId, action),
    /** After a license or insurance decision: the renter's trips that can now have a key get one. */
    issueKeysOfRenter: async (userId: string) => void (await issueKeysOfRenter(keyDeps, userId)),
    /**
     * Inside the transaction that changed the renter's birthday: each trip that can still change
     * gets its underage fee in line. True when that retired an unpaid charge: `cancelRetired`
     * afterwards cancels it.
     */
    birthdayChanged: async (trx: Transaction<Database>, userId: string, now: Date): Promise<boolean> => {
      await syncUnderageFeesOfRenter(trx, userId, now);
      return chargesRetiredIn(trx) > 0;
    },
  };
}

export type Trips = ReturnType<typeof createTrips>;
