import type { MessageKind } from '@ampere/domain/messages';
import { type ExpressionBuilder, type InferResult, type Insertable, type Kysely, type Transaction, sql } from 'kysely';
import { jsonObjectFrom } from 'kysely/helpers/postgres';
import type { Database, TripMessageTable } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** What a trip's messages name: the trip, its pickup place and model, and the renter's addresses. */
export function tripForMessage(db: Db, reservationId: string): Promise<TripForMessage | undefined> {
  return tripForMessageQuery(db, reservationId).executeTakeFirst();
}

export type TripForMessage = InferResult<ReturnType<typeof tripForMessageQuery>>[number];

function tripForMessageQuery(db: Db, reservationId: string) {
  return db
    .selectFrom('reservations as r')
    .innerJoin('locations as l', 'l.id', 'r.pickup_location_id')
    .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
    .innerJoin('vehicle_models as m', 'm.id', 'v.model_id')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select([
      'r.id',
      'r.platform_id',
      'r.status',
      'r.user_id',
      'r.pickup_at',
      'r.return_at',
      'r.created_at',
      ...PLACE_AND_RENTER,
    ])
    .where('r.id', '=', reservationId);
}

/** What the messages name beside the trip's own row: its pickup place, its model and the renter's addresses. */
const PLACE_AND_RENTER = [
  'l.timezone',
  'l.name as place_name',
  'l.street',
  'l.city',
  'l.state',
  'l.zip_code',
  'l.pickup_instructions_html',
  'm.name as model',
  'u.first_name',
  'u.phone',
  'u.email',
] as const;

/**
 * The part of `tripForMessage` that is not the trip's own row, as a JSON sub-select of a read of
 * `reservations as r`: a caller that reads the trip anyway (its locked read) gets it without a
 * round trip of its own. The rows it names do not move with the trip (a place, a model, a renter).
 */
export function placeAndRenterOf(eb: ExpressionBuilder<Database & { r: Database['reservations'] }, 'r'>) {
  return jsonObjectFrom(
    eb
      .selectFrom('locations as l')
      .innerJoin('vehicles as v', (join) => join.onRef('v.id', '=', 'r.vehicle_id'))
      .innerJoin('vehicle_models as m', 'm.id', 'v.model_id')
      .innerJoin('users as u', (join) => join.onRef('u.id', '=', 'r.user_id'))
      .select(PLACE_AND_RENTER)
      .whereRef('l.id', '=', 'r.pickup_location_id'),
  );
}

/** Records messages; one already recorded under the same key and channel is left as it is. How many were new. */
export async function insertMessages(db: Db, rows: Insertable<TripMessageTable>[]): Promise<number> {
  if (rows.length === 0) return 0;
  const r = await db
    .insertInto('trip_messages')
    .values(rows)
    .onConflict((oc) => oc.columns(['dedupe_key', 'channel']).doNothing())
    .returning('id')
    .execute();
  return r.length;
}

/** Records one message; its id, or null when one under the same key and channel was recorded before. */
export async function insertMessage(db: Db, row: Insertable<TripMessageTable>): Promise<number | null> {
  const r = await db
    .insertInto('trip_messages')
    .values(row)
    .onConflict((oc) => oc.columns(['dedupe_key', 'channel']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return r?.id ?? null;
}

/**
 * Claims up to `limit` messages due at `now` for one sender: each is taken by one runner
 * (`for update skip locked`, and a claim that lasts `claimMs`), whatever the number of processes.
 */
export async function claimDue(db: Kysely<Database>, now: Date, claimMs: number, limit: number) {
  const claimed = await db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('trip_messages')
      .select('id')
      .where('status', '=', 'pending')
      .where('send_after', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
      .orderBy('send_after')
      .orderBy('id')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return [];
    return trx
      .updateTable('trip_messages as t')
      .from('reservations as r')
      .set({ claimed_until: new Date(now.getTime() + claimMs), attempts: sql`t.attempts + 1` })
      .whereRef('r.id', '=', 't.reservation_id')
      .where(
        't.id',
        'in',
        due.map((d) => d.id),
      )
      .returning([
        't.id',
        't.channel',
        't.kind',
        't.to_address',
        't.subject',
        't.body',
        't.attempts',
        'r.status as trip_status',
      ])
      .execute();
  });
  // In the order they were recorded (an update returns its rows in no set order).
  return claimed.sort((a, b) => a.id - b.id);
}

export async function markSent(db: Db, id: number, now: Date): Promise<void> {
  await db
    .updateTable('trip_messages')
    .set({ status: 'sent', sent_at: now, claimed_until: null, last_error: null })
    .where('id', '=', id)
    .execute();
}

export async function markSkipped(db: Db, id: number): Promise<void> {
  await db.updateTable('trip_messages').set({ status: 'skipped', claimed_until: null }).where('id', '=', id).execute();
}

/** A failed attempt: tried again at `retryAt`, or given up (`retryAt` null). */
export async function markFailedAttempt(db: Db, id: number, error: string, retryAt: Date | null): Promise<void> {
  await db
    .updateTable('trip_messages')
    .set(
      retryAt
        ? { send_after: retryAt, claimed_until: null, last_error: error }
        : { status: 'failed', claimed_until: null, last_error: error },
    )
    .where('id', '=', id)
    .execute();
}

/** The trip `r`'s messages of one kind, for "none recorded yet". */
const messageOfKind = (eb: ExpressionBuilder<Database & { r: Database['reservations'] }, 'r'>, kind: MessageKind) =>
  eb
    .selectFrom('trip_messages as t')
    .select('t.id')
    .whereRef('t.reservation_id', '=', 'r.id')
    .where('t.kind', '=', kind);

/** Confirmed trips whose pickup is between `from` and `until`, confirmed before `confirmedBefore`, with no reminder yet. */
export function tripsNeedingPickupReminder(db: Db, from: Date, until: Date, limit: number) {
  return db
    .selectFrom('reservations as r')
    .select(['r.id'])
    .where('r.status', '=', 'Pending')
    .where('r.pickup_at', '>', from)
    .where('r.pickup_at', '<=', until)
    .where('r.confirmed_at', '<=', sql<Date>`r.pickup_at - interval '24 hours'`)
    .where((eb) => eb.not(eb.exists(messageOfKind(eb, 'pickup_tomorrow'))))
    .orderBy('r.pickup_at')
    .limit(limit)
    .execute();
}

/** Unpaid holds made at or before `createdBefore` and after `createdAfter` (still holding), with no warning yet. */
export function holdsNeedingWarning(db: Db, createdAfter: Date, createdBefore: Date, limit: number) {
  return db
    .selectFrom('reservations as r')
    .select(['r.id'])
    .where('r.status', '=', 'Started')
    .where('r.user_id', 'is not', null)
    .where('r.created_at', '>', createdAfter)
    .where('r.created_at', '<=', createdBefore)
    .where((eb) => eb.not(eb.exists(messageOfKind(eb, 'hold_lapsing'))))
    .orderBy('r.created_at')
    .limit(limit)
    .execute();
}

/** A trip's messages as recorded, oldest first (tests and the dev pages). */
export function messagesOfTrip(db: Db, reservationId: string) {
  return db.selectFrom('trip_messages').selectAll().where('reservation_id', '=', reservationId).orderBy('id').execute();
}

/** The built-in mailbox keeps one email. */
export async function insertMail(
  db: Db,
  values: { to_address: string; subject: string; body: string; sent_at: Date },
): Promise<void> {
  await db.insertInto('email_outbox').values(values).execute();
}

/** The built-in mailbox, newest first: to one address, or to everyone. */
export function listMailbox(db: Db, opts: { to?: string; limit: number }) {
  let q = db.selectFrom('email_outbox').select(['id', 'to_address', 'subject', 'body', 'sent_at']);
  if (opts.to) q = q.where('to_address', '=', opts.to.trim().toLowerCase());
  return q.orderBy('id', 'desc').limit(opts.limit).execute();
}
