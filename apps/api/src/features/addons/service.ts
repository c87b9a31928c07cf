import type { Kysely } from 'kysely';
import { ADDON_LABELS, type AddonType } from '@ampere/domain/constants';
import type { Addon } from '@ampere/domain/contract/catalog';
import type { Database } from '../../db/schema.ts';
import { notFound, unprocessable } from '../../http/errors.ts';
import * as repo from './repository.ts';

const ORDER: AddonType[] = ['DAMAGE_WAIVER', 'UNLIMITED_MILES', 'PREPAID_EV_CHARGING'];

/** A period to offer extras for ends after it starts. */
export function requireAddonPeriod(input: { pickupAt: string; returnAt: string }): void {
  if (new Date(input.returnAt).getTime() <= new Date(input.pickupAt).getTime())
    throw unprocessable('returnAt must be after pickupAt.', 'returnAt');
}

/** The extras a renter can add to this car for this period. */
export async function relatedAddons(
  db: Kysely<Database>,
  input: { vehicleVin: string; pickupAt: string; returnAt: string },
): Promise<Addon[]> {
  requireAddonPeriod(input);
  // The car and its model's add-ons in one statement.
  const vehicle = await repo.activeAddonsForVin(db, input.vehicleVin);
  if (!vehicle) throw notFound(`No vehicle with VIN ${input.vehicleVin.toUpperCase()}.`, 'vehicleVin');
  return inOrder(vehicle.addons);
}

/** The extras offered for cars of this model (those for every model and the model's own), in order. */
export async function addonsOfModel(db: Kysely<Database>, modelId: number): Promise<Addon[]> {
  return inOrder(await repo.activeAddonsForModel(db, modelId));
}

type AddonRow = Awaited<ReturnType<typeof repo.activeAddonsForModel>>[number];

const inOrder = (rows: AddonRow[]): Addon[] =>
  rows.map((r) => ({ ...r, name: ADDON_LABELS[r.type] })).sort((a, b) => ORDER.indexOf(a.type) - ORDER.indexOf(b.type));
