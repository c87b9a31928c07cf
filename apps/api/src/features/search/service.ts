import type { Kysely } from 'kysely';
import { distanceMiles } from '@ampere/domain/vehicle';
import type { SearchOption } from '@ampere/domain/contract/catalog';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import * as repo from './repository.ts';

export type SearchScope = { option: SearchOption; state: string };

const CITY_LIST_LIMIT = 50;

function toOption(row: NonNullable<Awaited<ReturnType<typeof repo.findSearchOption>>>): SearchOption {
  return {
    id: row.id,
    query: row.query,
    type: row.type as SearchOption['type'],
    latitude: row.latitude,
    longitude: row.longitude,
    timezone: row.timezone,
    min_reservation_buffer_hours: row.min_reservation_buffer_hours,
    region_id: row.region_id,
  };
}

export async function getSearchScope(db: Kysely<Database>, id: number): Promise<SearchScope> {
  const row = await repo.findSearchOption(db, id);
  if (!row) throw notFound(`No search location with id ${id}.`, 'searchQueryId');
  return { option: toOption(row), state: row.state };
}

/** Every search location with its scope, for the in-memory search index. */
export async function allSearchScopes(db: Kysely<Database>): Promise<SearchScope[]> {
  return (await repo.listAllOptions(db)).map((row) => ({ option: toOption(row), state: row.state }));
}

export async function getSearchOption(db: Kysely<Database>, id: number): Promise<SearchOption> {
  return (await getSearchScope(db, id)).option;
}

export async function cityOptions(db: Kysely<Database>): Promise<SearchOption[]> {
  return (await repo.listCityOptions(db, CITY_LIST_LIMIT)).map(toOption);
}

/** Empty text gives the city list, as the location box shows before anything is typed. */
export async function autocomplete(db: Kysely<Database>, text: string, limit: number): Promise<SearchOption[]> {
  if (!text) return (await repo.listCityOptions(db, limit)).map(toOption);
  return (await repo.matchSearchOptions(db, text, limit)).map(toOption);
}

export async function landmarksNear(db: Kysely<Database>, id: number): Promise<SearchOption[]> {
  const origin = await getSearchOption(db, id);
  const rows = await repo.optionsInRegion(db, origin.region_id, ['LANDMARK', 'AIRPORT']);
  return rows
    .filter((r) => r.id !== origin.id)
    .map(toOption)
    .sort((a, b) => distanceMiles(origin, a) - distanceMiles(origin, b));
}
