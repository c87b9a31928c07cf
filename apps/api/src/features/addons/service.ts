import type { Kysely } from 'kysely';
import { ADDON_LABELS, type AddonType } from '@ampere/domain/constants';
import type { Addon } from '@ampere/domain/contract/catalog';
import type { Database } from '../../db/schema.ts';
import { notFound, unprocessable } from '../../http/errors.ts';
import * as repo from './repository.ts';

const ORDER: AddonType[] = ['DAMAGE_WAIVER', 'UNLIMITED_MILES', 'PREPAID_EV_CHARGING'];

/** The extras a renter can add to this car for this period. */
export async function relatedAddons(
  db: Kysely<Database>,
  input: { vehicleVin: string; pickupAt: string; returnAt: string },
): Promise<Addon[]> {
  if (new Date(input.returnAt).getTime() <= new Date(input.pickupAt).getTime())
    throw unprocessable('returnAt must be after pickupAt.', 'returnAt');
  const vehicle = await repo.vehicleModelId(db, input.vehicleVin);
  if (!vehicle) throw notFound(`No vehicle with VIN ${input.vehicleVin.toUpperCase()}.`, 'vehicleVin');
  const rows = await repo.activeAddonsForModel(db, vehicle.model_id);
  return rows
    .map((r) => ({ ...r, name: ADDON_LABELS[r.type] }))
    .sort((a, b) => ORDER.indexOf(a.type) - ORDER.indexOf(b.type));
}
