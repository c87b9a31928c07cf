import type { Kysely } from 'kysely';
import sanitizeHtml from 'sanitize-html';
import type { z } from 'zod';
import type { LocationEdit, LocationSummary, LocationsList } from '@ampere/domain/contract/ops-fleet';
import {
  INSTRUCTIONS_STORED_ATTRIBUTES,
  INSTRUCTIONS_STORED_SCHEMES,
  INSTRUCTIONS_STORED_TAGS,
} from '@ampere/domain/location-instructions';
import type { Database } from '../../db/schema.ts';
import { afterCommit, transact } from '../../db/transact.ts';
import { AppError, notFound, unprocessable } from '../../http/errors.ts';
import type { OpsContext } from '../../http/ops-route.ts';
import { type FleetDeps, scopeOf } from './cars.ts';
import * as repo from './locations-repository.ts';

/**
 * Locations in the console (decision 083): a manager edits the address, the clock, the pickup
 * buffer and the instructions of the lots they work at; another's answers 404.
 */

export const LOCATION_NOT_FOUND = 'We could not find that location.';

/**
 * Instructions keep only simple formatting and web links: paragraphs, bold, italics, lists and
 * links to http(s) addresses. Everything else (scripts, styles, images, event handlers, other
 * link schemes) is dropped before it is stored; the renter pages sanitise again when they show it.
 */
const INSTRUCTIONS_POLICY: sanitizeHtml.IOptions = {
  allowedTags: [...INSTRUCTIONS_STORED_TAGS],
  allowedAttributes: { a: [...INSTRUCTIONS_STORED_ATTRIBUTES.a] },
  allowedSchemes: [...INSTRUCTIONS_STORED_SCHEMES],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

export const sanitizeInstructions = (html: string): string => sanitizeHtml(html, INSTRUCTIONS_POLICY).trim();

/** Whether the runtime knows `zone` as an IANA time zone (America/Chicago; not "CST" or "+05:00"). */
export function isIanaTimeZone(zone: string): boolean {
  if (!/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+$/.test(zone) && zone !== 'UTC') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function summary(l: repo.LocationRow): LocationSummary {
  return {
    id: String(l.id),
    name: l.name,
    street: l.street,
    city: l.city,
    state: l.state,
    zipCode: l.zip_code,
    timezone: l.timezone,
    minReservationBufferHours: l.min_reservation_buffer_hours,
    pickupInstructionsHtml: l.pickup_instructions_html,
    returnInstructionsHtml: l.return_instructions_html,
  };
}

export async function listLocations(db: Kysely<Database>, ops: OpsContext): Promise<z.input<typeof LocationsList>> {
  return { locations: (await repo.listLocations(db, scopeOf(ops))).map(summary) };
}

export async function editLocation(
  deps: FleetDeps,
  ops: OpsContext,
  locationId: number,
  body: z.output<typeof LocationEdit>,
): Promise<LocationSummary> {
  const found = await repo.findLocation(deps.db, locationId);
  if (!found) throw notFound(LOCATION_NOT_FOUND);
  ops.requireInScope(String(found.id), LOCATION_NOT_FOUND);
  if (body.timezone !== undefined && !isIanaTimeZone(body.timezone))
    throw unprocessable(
      `"${body.timezone}" is not a time zone we know; use an IANA name such as America/Chicago.`,
      'timezone',
    );
  const values = {
    ...(body.street !== undefined ? { street: body.street } : {}),
    ...(body.city !== undefined ? { city: body.city } : {}),
    ...(body.state !== undefined ? { state: body.state } : {}),
    ...(body.zipCode !== undefined ? { zip_code: body.zipCode } : {}),
    ...(body.timezone !== undefined ? { timezone: body.timezone } : {}),
    ...(body.minReservationBufferHours !== undefined
      ? { min_reservation_buffer_hours: body.minReservationBufferHours }
      : {}),
    ...(body.pickupInstructionsHtml !== undefined
      ? { pickup_instructions_html: sanitizeInstructions(body.pickupInstructionsHtml) }
      : {}),
    ...(body.returnInstructionsHtml !== undefined
      ? { return_instructions_html: sanitizeInstructions(body.returnInstructionsHtml) }
      : {}),
  };
  return transact(deps.db, async (trx) => {
    const row = (await repo.findLocation(trx, locationId, { lock: true }))!;
    const before = summary(row);
    if (body.timezone !== undefined && body.timezone !== row.timezone) {
      // Booked trips keep the clock they were booked on; moving the lot's clock under them would
      // shift every pickup and return time their renters were told.
      const open = await repo.openTripsAt(trx, locationId, ops.now);
      if (open.length > 0)
        throw new AppError(
          'CONFLICT',
          `The time zone cannot change while trips are booked here: ${open
            .slice(0, 5)
            .map((t) => t.platform_id)
            .join(', ')}${open.length > 5 ? ' and more' : ''}.`,
          'timezone',
        );
    }
    await repo.updateLocation(trx, row, values);
    const after = summary((await repo.findLocation(trx, locationId))!);
    await ops.audit(trx, { target: { type: 'location', id: after.id }, locationId: after.id, before, after });
    // Search reads lots' places and clocks with the fleet.
    await afterCommit(trx, () => deps.searchIndex.markFleetStale());
    return after;
  });
}
