import { createHash } from 'node:crypto';
import type { z } from 'zod';
import {
  TOLL_CSV_COLUMNS,
  TOLL_CSV_MAX_ROWS,
  TOLL_CSV_TYPES,
  type TollCsvType,
  type TripWindow,
  dollarsToCents,
  matchToll,
} from '@ampere/domain/charges';
import { normalisePlate } from '@ampere/domain/fleet';
import { AT_COST_LIMIT_CENTS, FEE_CATALOGUE } from '@ampere/domain/fees';
import type { TollImportResult } from '@ampere/domain/contract/ops-money';
import { formatTotal } from '@ampere/domain/money';
import { transact } from '../../db/transact.ts';
import { AppError } from '../../http/errors.ts';
import type { OpsContext } from '../../http/ops-route.ts';
import * as trips from '../trips/repository.ts';
import * as repo from './repository.ts';
import { type MoneyDeps, collectAndTell, priceWithAdministration, writeCharges } from './service.ts';

/**
 * Tolls and tickets from a CSV statement (decision 093): each row matched to the trip of the car
 * (by plate or VIN) whose time out holds the toll's time; a dry run lists the matched charges and
 * the rows that match none; a real import posts every row or none. The statement itself is kept as
 * the document backing each charge, and a row posted once is never posted again (its reference).
 */

/** Splits CSV text into rows of fields (quotes, doubled quotes, CRLF); null on a broken quote. */
export function parseCsv(text: string): string[][] | null {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (quoted) return null;
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

interface ReadRow {
  row: number;
  line: string;
  /** The time as the statement wrote it. */
  statedAt: string;
  type: TollCsvType;
  plate: string;
  vin: string;
  at: Date;
  cents: number;
  reference: string;
  description: string;
}

type Problem = { row: number; line: string; statedAt: string | null; reason: string };

function readRows(text: string): { rows: ReadRow[]; problems: Problem[] } {
  const records = parseCsv(text.replace(/^\uFEFF/, ''));
  if (!records) return { rows: [], problems: [{ row: 1, line: '', statedAt: null, reason: 'A quote is not closed.' }] };
  const [header, ...body] = records;
  if (!header) return { rows: [], problems: [{ row: 1, line: '', statedAt: null, reason: 'The file is empty.' }] };
  const names = header.map((h) => h.trim().toLowerCase());
  const col = (name: (typeof TOLL_CSV_COLUMNS)[number]) => names.indexOf(name);
  const missing = ['type', 'at', 'amount'].filter((c) => !names.includes(c));
  if (missing.length > 0 || (!names.includes('plate') && !names.includes('vin')))
    return {
      rows: [],
      problems: [
        {
          row: 1,
          line: header.join(','),
          statedAt: null,
          reason: `The header needs the columns ${TOLL_CSV_COLUMNS.join(', ')} (plate or vin, or both).`,
        },
      ],
    };
  if (body.length > TOLL_CSV_MAX_ROWS)
    return {
      rows: [],
      problems: [{ row: 1, line: '', statedAt: null, reason: `At most ${TOLL_CSV_MAX_ROWS} rows per file.` }],
    };
  const rows: ReadRow[] = [];
  const problems: Problem[] = [];
  body.forEach((fields, i) => {
    const n = i + 2;
    const line = fields.join(',');
    const get = (name: (typeof TOLL_CSV_COLUMNS)[number]) => (col(name) >= 0 ? (fields[col(name)] ?? '').trim() : '');
    const stated = get('at') || null;
    const type = get('type').toLowerCase();
    if (!(TOLL_CSV_TYPES as readonly string[]).includes(type))
      return problems.push({
        row: n,
        line,
        statedAt: stated,
        reason: `The type must be toll or ticket; got "${get('type')}".`,
      });
    const at = new Date(get('at'));
    if (!/^\d{4}-\d{2}-\d{2}T/.test(get('at')) || Number.isNaN(at.getTime()))
      return problems.push({
        row: n,
        line,
        statedAt: stated,
        reason: `The time must be an instant like 2026-11-20T14:05:00-08:00; got "${get('at')}".`,
      });
    const cents = dollarsToCents(get('amount'));
    if (cents === null || cents <= 0)
      return problems.push({
        row: n,
        line,
        statedAt: stated,
        reason: `The amount must be dollars and cents, e.g. 4.75; got "${get('amount')}".`,
      });
    if (cents > AT_COST_LIMIT_CENTS)
      return problems.push({
        row: n,
        line,
        statedAt: stated,
        reason: `Over ${formatTotal(AT_COST_LIMIT_CENTS)}: check the bill.`,
      });
    const plate = normalisePlate(get('plate'));
    const vin = get('vin').toUpperCase();
    if (!plate && !vin)
      return problems.push({ row: n, line, statedAt: stated, reason: 'The row has neither a plate nor a VIN.' });
    rows.push({
      row: n,
      line,
      statedAt: get('at'),
      type: type as TollCsvType,
      plate,
      vin,
      at,
      cents,
      reference: get('reference'),
      description: get('description'),
    });
  });
  return { rows, problems };
}

/** A row's key among everything ever imported: its type and the issuer's reference, or the row's own values. */
function importKey(r: ReadRow): string {
  const basis = r.reference
    ? `${r.type}|${r.reference}`
    : `${r.type}|${r.plate}|${r.vin}|${r.at.toISOString()}|${r.cents}`;
  return createHash('sha256').update(basis).digest('hex').slice(0, 40);
}

export async function importTolls(
  deps: MoneyDeps,
  ops: OpsContext,
  text: string,
  dryRun: boolean,
): Promise<z.input<typeof TollImportResult>> {
  const { rows, problems } = readRows(text);
  const candidates = await repo.tripsOfCars(
    deps.db,
    [...new Set(rows.map((r) => r.plate).filter(Boolean))],
    [...new Set(rows.map((r) => r.vin).filter(Boolean))],
  );
  const windows: (TripWindow & { row: (typeof candidates)[number] })[] = candidates
    .filter((c) => ops.inScope(String(c.pickup_location_id)))
    .map((c) => ({
      tripId: c.id,
      vehicleId: c.vehicle_id,
      vin: c.vin,
      plate: c.license_plate,
      pickupAt: new Date(c.on_rent_at ?? c.pickup_at),
      returnedAt: c.returned_at ? new Date(c.returned_at) : null,
      row: c,
    }));
  const already = await repo.importedKeys(deps.db, rows.map(importKey));
  const seen = new Set<string>();
  const unmatched: Problem[] = [...problems];
  const matched: (z.input<typeof TollImportResult>['matched'][number] & { key: string; at: string })[] = [];
  for (const r of rows) {
    const key = importKey(r);
    if (already.has(key) || seen.has(key)) {
      unmatched.push({
        row: r.row,
        line: r.line,
        statedAt: r.statedAt,
        reason: 'Already imported: this row was posted before.',
      });
      continue;
    }
    seen.add(key);
    const m = matchToll({ plate: r.plate, vin: r.vin, at: r.at }, windows, ops.now);
    if (!m.ok) {
      unmatched.push({ row: r.row, line: r.line, statedAt: r.statedAt, reason: m.message });
      continue;
    }
    const trip = windows.find((w) => w.tripId === m.trip.tripId)!.row;
    const admin = FEE_CATALOGUE[r.type].administration;
    matched.push({
      row: r.row,
      type: r.type,
      tripId: trip.id,
      tripReference: trip.platform_id,
      vin: trip.vin,
      plate: trip.license_plate,
      at: r.at.toISOString(),
      timezone: trip.location_timezone,
      cents: r.cents,
      administrationCents: admin ? (FEE_CATALOGUE[admin].price as { cents: number }).cents : 0,
      reference: r.reference,
      description: r.description,
      key,
    });
  }
  unmatched.sort((a, b) => a.row - b.row);
  const totalCents = matched.reduce((s, m) => s + m.cents + m.administrationCents, 0);
  const result = {
    dryRun,
    posted: false,
    matched: matched.map(({ key: _key, ...m }) => m),
    unmatched,
    chargeIds: [] as string[],
    totalCents,
  };
  if (dryRun || unmatched.length > 0 || matched.length === 0) {
    await ops.audit(deps.db, {
      target: { type: 'tolls', id: dryRun ? 'import-check' : 'import-refused' },
      after: { dryRun, matched: matched.length, unmatched: unmatched.length },
    });
    return result;
  }
  // The statement is the document behind every charge it brings.
  const bytes = Buffer.from(text, 'utf8');
  const storageKey = `evidence/statements/${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.csv`;
  await deps.storage.put(storageKey, bytes, 'text/csv');
  const byTrip = new Map<string, typeof matched>();
  for (const m of matched) byTrip.set(m.tripId, [...(byTrip.get(m.tripId) ?? []), m]);
  const posted = await transact(deps.db, async (trx) => {
    const ids: { tripId: string; ids: string[] }[] = [];
    for (const [tripId, list] of [...byTrip.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const locked = await trips.lockReservation(trx, tripId);
      const trip = (await repo.tripForMoney(trx, tripId))!;
      const tripIds: string[] = [];
      for (const m of list) {
        if ((await repo.importedKeys(trx, [m.key])).size > 0)
          throw new AppError(
            'CONFLICT',
            `Row ${m.row} was imported meanwhile; nothing was posted. Run the import again.`,
            'file',
          );
        const priced = priceWithAdministration(m.type, 1, m.cents, [{ kind: 'document' }]);
        const written = await writeCharges(
          trx,
          { ...trip, status: locked.status },
          {
            priced,
            reason:
              [m.description, m.reference ? `ref. ${m.reference}` : ''].filter(Boolean).join(', ') ||
              `${FEE_CATALOGUE[m.type].label} at ${m.at}`,
            evidence: { evidenceIds: [], readings: [], inspectionPhotoIds: [], files: [] },
            externalReference: m.reference || null,
            occurredAt: new Date(m.at),
            importKey: m.key,
            extraEvidence: {
              storageKey,
              contentType: 'text/csv',
              bytes: bytes.length,
              label: `Statement row ${m.row}`,
            },
          },
          ops.staff.id,
          ops.now,
        );
        tripIds.push(...written.ids);
      }
      ids.push({ tripId, ids: tripIds });
    }
    await ops.audit(trx, {
      target: { type: 'tolls', id: 'import' },
      after: { charges: ids.flatMap((x) => x.ids), trips: ids.length, totalCents },
    });
    return ids;
  });
  for (const { tripId, ids } of posted) {
    const trip = (await repo.tripForMoney(deps.db, tripId))!;
    await collectAndTell(deps, trip, ids);
  }
  return { ...result, posted: true, chargeIds: posted.flatMap((x) => x.ids) };
}
