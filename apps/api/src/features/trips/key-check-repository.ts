import { type Expression, sql } from 'kysely';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import { licenseOverrideOf } from '../renter-review/gates-repository.ts';
import { type AsJson, type Db, insuranceQuery, transactionsQuery, withStaffPass } from './repository.ts';
import { compiledOnce } from '../../db/compiled-once.ts';

/** The renter's license as the key rules read it; no row when there is no renter. */
const licenseQuery = (db: Db, userId: string | Expression<string>) =>
  db
    .selectFrom('users as u')
    .select([
      'u.license_number',
      'u.license_expiration',
      'u.license_status',
      licenseOverrideOf('u.id').as('license_override'),
    ])
    .where('u.id', '=', userId);

/**
 * What the key rules read besides the trip's row, as JSON sub-selects of one statement: its line
 * items, its renter's license and the insurance connections (the trip's own and the renter's).
 * Keyed by values, or by the columns of the reservation row the statement selects.
 */
function keyInputColumns(db: Db, trip: { id: string | Expression<string>; userId: string | Expression<string> }) {
  return [
    jsonArrayFrom(transactionsQuery(db, [trip.id])).as('transactions'),
    jsonObjectFrom(licenseQuery(db, trip.userId)).as('license'),
    jsonArrayFrom(insuranceQuery(db, [trip.id], [trip.userId])).as('insurance'),
  ] as const;
}

/** The inputs as the rules take them: the line items' times typed as the ISO text they come back as. */
function shapeInputs<T, L, I extends { status: string; passed_by_staff: boolean }>(row: {
  transactions: T[];
  license: L;
  insurance: I[];
}) {
  return {
    transactions: row.transactions as unknown as AsJson<T>[],
    license: row.license,
    insurance: row.insurance.map(withStaffPass),
  };
}

const keyInputQuery = (db: Db, trip: { id: string; user_id: string | null }) =>
  db.selectNoFrom(keyInputColumns(db, { id: trip.id, userId: trip.user_id ?? sql<string>`null` }));

/** The trip's line items, its renter's license and insurance connections, in one statement. */
export async function keyInputsOf(db: Db, trip: { id: string; user_id: string | null }) {
  return shapeInputs(await keyInputQuery(db, trip).executeTakeFirstOrThrow());
}

export type KeyInputs = Awaited<ReturnType<typeof keyInputsOf>>;

/**
 * The trip's row, whether it has a live key (active or paused) or ever had one (a revoked one
 * counts), and the key rules' inputs, in one statement; undefined for an unknown trip.
 */
export async function keyCheckOf(db: Db, reservationId: string) {
  const [row] = await keyCheck(db, reservationId);
  if (!row) return undefined;
  const { has_live_key, had_key, transactions, license, insurance, ...trip } = row;
  return { trip, hasLiveKey: has_live_key, hadKey: had_key, inputs: shapeInputs({ transactions, license, insurance }) };
}

// Built and compiled once per process (decision 102, addendum): it runs after every payment.
const keyCheck = compiledOnce((db, reservationId: string) =>
  db
    .selectFrom('reservations as r')
    .select(['r.id', 'r.user_id', 'r.platform_id', 'r.status', 'r.pickup_at', 'r.return_at', 'r.timezone'])
    .select((eb) => [
      eb
        .exists(
          eb
            .selectFrom('digital_keys as k')
            .select('k.id')
            .whereRef('k.reservation_id', '=', 'r.id')
            .where('k.status', '!=', 'revoked'),
        )
        .as('has_live_key'),
      eb
        .exists(eb.selectFrom('digital_keys as k').select('k.id').whereRef('k.reservation_id', '=', 'r.id'))
        .as('had_key'),
    ])
    .select(keyInputColumns(db, { id: sql.ref<string>('r.id'), userId: sql.ref<string>('r.user_id') }))
    .where('r.id', '=', reservationId),
);
