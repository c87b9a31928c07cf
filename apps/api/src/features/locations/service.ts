import type { Kysely } from 'kysely';
import type { City, Location } from '@ampere/domain/contract/catalog';
import { distanceMiles } from '@ampere/domain/vehicle';
import type { Database } from '../../db/schema.ts';
import * as repo from './repository.ts';

export function searchLocations(
  db: Kysely<Database>,
  opts: { text: string; regionId?: number | undefined; limit: number },
): Promise<Location[]> {
  return repo.searchLocations(db, opts);
}

export async function pageLocations(
  db: Kysely<Database>,
  opts: { regionId?: number | undefined; page: number; size: number },
) {
  const { rows, total } = await repo.pageLocations(db, opts);
  return { locations: rows, page: opts.page, size: opts.size, total };
}

/** Cities we serve; with coordinates, nearest first and with the distance. */
export async function cities(db: Kysely<Database>, from?: { latitude: number; longitude: number }): Promise<City[]> {
  const rows = await repo.listCities(db);
  const list = rows.map((r) => ({ ...r, distance_miles: from ? Math.round(distanceMiles(from, r) * 10) / 10 : null }));
  return from ? list.sort((a, b) => a.distance_miles! - b.distance_miles!) : list;
}
