import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SearchOptionType } from '@ampere/domain/constants';

const COLUMNS = [
  'id',
  'query',
  'type',
  'latitude',
  'longitude',
  'timezone',
  'min_reservation_buffer_hours',
  'region_id',
  'state',
] as const;
export type SearchOptionRow = Awaited<ReturnType<typeof findSearchOption>> & {};

export function findSearchOption(db: Kysely<Database>, id: number) {
  return db.selectFrom('search_options').select(COLUMNS).where('id', '=', id).executeTakeFirst();
}

export function listCityOptions(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom('search_options')
    .select(COLUMNS)
    .where('type', '=', 'CITY')
    .orderBy('rank', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Case-insensitive substring match; options that start with the text come first. */
export function matchSearchOptions(db: Kysely<Database>, text: string, limit: number) {
  const escaped = text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return db
    .selectFrom('search_options')
    .select(COLUMNS)
    .where(sql<boolean>`lower(query) like ${`%${escaped}%`}`)
    .orderBy(sql`case when lower(query) like ${`${escaped}%`} then 0 else 1 end`)
    .orderBy('rank', 'desc')
    .orderBy('query')
    .limit(limit)
    .execute();
}

export function optionsInRegion(db: Kysely<Database>, regionId: number, types: readonly SearchOptionType[]) {
  return db
    .selectFrom('search_options')
    .select(COLUMNS)
    .where('region_id', '=', regionId)
    .where('type', 'in', types)
    .execute();
}

export function listAllOptions(db: Kysely<Database>) {
  return db.selectFrom('search_options').select(COLUMNS).execute();
}
