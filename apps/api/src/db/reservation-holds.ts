import { sql } from 'kysely';

/**
 * Decision 027: a reservation holds its car from the earlier of its pickup and a requested earlier
 * one (until blocked_until) — the start the exclusion constraint uses. Select it as pickup_at
 * wherever holds are read (search, the vehicle page's calendar, conflict checks).
 */
export const HELD_FROM = sql<Date>`least(pickup_at, requested_pickup_at)`;
