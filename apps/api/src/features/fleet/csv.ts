import { parse } from 'csv-parse/sync';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { IMPORT_MAX_ROWS, type ImportResult, type ImportRowError } from '@ampere/domain/contract/ops-fleet';
import {
  type CarRow,
  type CarRowInput,
  FLEET_CSV_COLUMNS,
  type FleetCsvColumn,
  REQUIRED_FLEET_COLUMNS,
  checkCarRow,
} from '@ampere/domain/fleet';
import type { Database } from '../../db/schema.ts';
import { afterCommit, transact } from '../../db/transact.ts';
import { AppError } from '../../http/errors.ts';
import type { OpsContext } from '../../http/ops-route.ts';
import { type FleetDeps, newCarPlatformId, rowContext, scopeOf } from './cars.ts';
import * as repo from './repository.ts';

/**
 * The fleet's CSV (decision 084): the import checks every row before writing any, and writes all
 * of them in one transaction or none; the export writes the same columns, so it imports again.
 */

/** At most this many problems are listed; a file with more has a bigger problem than its rows. */
const MAX_LISTED_ERRORS = 500;
/** Header spellings taken for a column besides its own name. */
const HEADER_ALIASES: Record<string, FleetCsvColumn> = { color: 'colour', daily_rate: 'daily_rate_cents' };

interface ParsedRow {
  line: number;
  input: CarRowInput;
}

/** The file's rows by column, or the file's own problem (no header, a column missing, a broken quote). */
function readCsv(text: string): { rows: ParsedRow[]; errors: ImportRowError[] } {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      max_record_size: 10_000,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (err) {
    const line = (err as { lines?: number }).lines ?? 1;
    return {
      rows: [],
      errors: [
        {
          row: line,
          column: 'file',
          message: `The file is not valid CSV near line ${line}: ${(err as Error).message}`,
        },
      ],
    };
  }
  const [header, ...body] = records;
  if (!header) return { rows: [], errors: [{ row: 1, column: 'file', message: 'The file is empty.' }] };
  const names = header.record.map((h) => {
    const name = h.trim().toLowerCase().replace(/\s+/g, '_');
    return HEADER_ALIASES[name] ?? name;
  });
  const errors: ImportRowError[] = [];
  const unknown = names.filter((n) => !(FLEET_CSV_COLUMNS as readonly string[]).includes(n));
  if (unknown.length > 0)
    errors.push({
      row: 1,
      column: 'file',
      message: `Unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')}; the columns are ${FLEET_CSV_COLUMNS.join(', ')}.`,
    });
  const missing = REQUIRED_FLEET_COLUMNS.filter((c) => !names.includes(c));
  if (missing.length > 0)
    errors.push({
      row: 1,
      column: 'file',
      message: `The header lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`,
    });
  if (body.length > IMPORT_MAX_ROWS)
    errors.push({ row: 1, column: 'file', message: `A file holds at most ${IMPORT_MAX_ROWS} cars; split it.` });
  if (body.length === 0) errors.push({ row: 1, column: 'file', message: 'The file has a header but no cars.' });
  if (errors.length > 0) return { rows: [], errors };
  const rows = body.map(({ record, info }) => {
    const input: CarRowInput = {};
    names.forEach((name, i) => {
      input[name as FleetCsvColumn] = record[i] ?? '';
    });
    return { line: info.lines, input };
  });
  return { rows, errors };
}

/** Every row checked: its values by the domain's rule, then its VIN against the file and the fleet. */
async function checkRows(
  db: Kysely<Database>,
  ops: Pick<OpsContext, 'staff' | 'now'>,
  rows: ParsedRow[],
): Promise<{ cars: CarRow[]; errors: ImportRowError[] }> {
  const ctx = await rowContext(db, ops);
  const errors: ImportRowError[] = [];
  const cars: CarRow[] = [];
  const firstLineOf = new Map<string, number>();
  const good: { line: number; car: CarRow }[] = [];
  for (const { line, input } of rows) {
    const result = checkCarRow(input, ctx);
    if (!result.ok) {
      for (const p of result.problems) errors.push({ row: line, column: p.column, message: p.message });
      continue;
    }
    const earlier = firstLineOf.get(result.car.vin);
    if (earlier !== undefined) {
      errors.push({
        row: line,
        column: 'vin',
        message: `VIN ${result.car.vin} is also on line ${earlier}; a car is listed once.`,
      });
      continue;
    }
    firstLineOf.set(result.car.vin, line);
    good.push({ line, car: result.car });
  }
  const taken = await repo.existingVins(
    db,
    good.map((g) => g.car.vin),
  );
  for (const { line, car } of good) {
    if (taken.has(car.vin))
      errors.push({ row: line, column: 'vin', message: `The fleet already has a car with VIN ${car.vin}.` });
    else cars.push(car);
  }
  errors.sort((a, b) => a.row - b.row);
  return { cars, errors };
}

const listed = (errors: ImportRowError[]) =>
  errors.length > MAX_LISTED_ERRORS
    ? [
        ...errors.slice(0, MAX_LISTED_ERRORS),
        {
          row: errors[MAX_LISTED_ERRORS]!.row,
          column: 'file' as const,
          message: `…and ${errors.length - MAX_LISTED_ERRORS} more problems; fix these first.`,
        },
      ]
    : errors;

/**
 * Checks the CSV; a dry run answers the problems and writes nothing. A real import with any problem
 * is refused (422) with the same list; otherwise every car is written in one transaction, with one
 * audit record naming the count.
 */
export async function importFleet(
  deps: FleetDeps,
  ops: OpsContext,
  text: string,
  dryRun: boolean,
): Promise<z.input<typeof ImportResult>> {
  const parsed = readCsv(text);
  const { cars, errors } =
    parsed.errors.length > 0 ? { cars: [], errors: parsed.errors } : await checkRows(deps.db, ops, parsed.rows);
  const result = { dryRun, rows: parsed.rows.length, imported: 0, errors: listed(errors) };
  if (dryRun) {
    // A check writes nothing, but who looked at which file is still recorded.
    await ops.audit(deps.db, {
      target: { type: 'fleet', id: 'import-check' },
      after: { dryRun: true, rows: result.rows, problems: errors.length },
    });
    return result;
  }
  if (errors.length > 0)
    throw new AppError(
      'UNPROCESSABLE',
      `Nothing was imported: ${errors.length} problem${errors.length > 1 ? 's' : ''} in the file. Fix ${errors.length > 1 ? 'them' : 'it'} and import again.`,
      'file',
      { body: { errors: result.errors } },
    );
  await transact(deps.db, async (trx) => {
    // Checked again inside: another import may have added one of these VINs since.
    const taken = await repo.existingVins(
      trx,
      cars.map((c) => c.vin),
    );
    if (taken.size > 0)
      throw new AppError(
        'CONFLICT',
        `Nothing was imported: the fleet now has ${[...taken].slice(0, 5).join(', ')}.`,
        'file',
      );
    const batteries = await repo.batteryTypes(trx);
    await repo.insertCars(
      trx,
      cars.map((c) => ({
        vin: c.vin,
        platform_id: newCarPlatformId(),
        model_id: c.modelId,
        location_id: c.locationId,
        year: c.year,
        color: c.color,
        odometer: c.odometer,
        rack_rate: c.rackRateCents,
        is_self_serve_booking_allowed: true,
        battery_type: batteries.get(c.modelId) ?? 'NCA',
        license_plate: c.licensePlate,
      })),
    );
    const byLocation: Record<string, number> = {};
    for (const c of cars) byLocation[c.locationId] = (byLocation[c.locationId] ?? 0) + 1;
    const locations = Object.keys(byLocation);
    await ops.audit(trx, {
      target: { type: 'fleet', id: 'import' },
      locationId: locations.length === 1 ? locations[0]! : null,
      after: { imported: cars.length, byLocation },
    });
    await afterCommit(trx, () => deps.searchIndex.markFleetStale());
  });
  return { ...result, imported: cars.length };
}

/** A CSV field, quoted when it holds a comma, a quote or a line break. */
function field(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The fleet the staff member sees, as CSV with the import's columns. */
export async function exportFleet(db: Kysely<Database>, ops: Pick<OpsContext, 'staff'>): Promise<string> {
  const rows = await repo.exportRows(db, scopeOf(ops));
  const lines = [FLEET_CSV_COLUMNS.join(',')];
  for (const r of rows)
    lines.push(
      [r.vin, r.year, r.model, r.color.toLowerCase(), r.location, r.rack_rate, r.odometer, r.license_plate ?? '']
        .map(field)
        .join(','),
    );
  return `${lines.join('\r\n')}\r\n`;
}
