import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { OPS_API, OPS_SESSION_COOKIE } from '@ampere/domain/contract/ops';
import { FLEET_CSV_COLUMNS, vinCheckDigit } from '@ampere/domain/fleet';
import { buildApp } from '@ampere/api/src/app.ts';
import { loadConfig } from '@ampere/api/src/config.ts';
import type { DatabaseHandle } from '@ampere/api/src/db/connect.ts';
import { migrateToLatest } from '@ampere/api/src/db/migrate.ts';
import { startStaffSession } from '@ampere/api/src/features/staff/sessions.ts';
import { seedDemo } from '@ampere/api/src/seed/seed.ts';

/**
 * The fleet's CSV import (issue 29, decision 084): an owner imports `rows` new cars through the
 * real API (app.inject: the body parsed, every row checked, all written in one transaction, the
 * audit record), first as a dry run, then for real. Timed end to end, request to answer.
 */
export interface ImportMeasurement {
  rows: number;
  csvBytes: number;
  dryRunSeconds: number;
  importSeconds: number;
}

/** `rows` cars with good, distinct VINs spread over the demo's lots and models, as a CSV. */
export function fleetCsv(rows: number, lots: string[], models: string[]): string {
  const colours = ['white', 'black', 'grey', 'red', 'blue'];
  const lines = [FLEET_CSV_COLUMNS.join(',')];
  for (let i = 0; i < rows; i++) {
    const draft = `7BN${'ABCDEFGH'[i % 8]}TST0R${String(10_000_000 + i)}`;
    const vin = `${draft.slice(0, 8)}${vinCheckDigit(draft)}${draft.slice(9)}`;
    const lot = lots[i % lots.length]!;
    lines.push(
      [
        vin,
        2024 + (i % 2),
        models[i % models.length],
        colours[i % colours.length],
        /[",]/.test(lot) ? `"${lot.replace(/"/g, '""')}"` : lot,
        8_900 + (i % 7) * 500,
        i % 50_000,
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Migrates and seeds the demo catalogue on `handle`, then times a dry run and an import of `rows` cars. */
export async function measureImport(
  handle: DatabaseHandle,
  rows: number,
  databaseUrl?: string,
): Promise<ImportMeasurement> {
  const now = new Date();
  await migrateToLatest(handle.db);
  await seedDemo(handle.db, now);
  const owner = await handle.db
    .insertInto('staff')
    .values({ phone: '+15550100999', name: 'Bench Owner', role: 'owner', location_ids: null, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { token } = await startStaffSession(handle.db, { staffId: owner.id, now, passkeyVerified: true });
  const [lots, models] = await Promise.all([
    handle.db.selectFrom('locations').select('name').orderBy('id').execute(),
    handle.db.selectFrom('vehicle_models').select('name').orderBy('id').execute(),
  ]);
  const csv = fleetCsv(
    rows,
    lots.map((l) => l.name),
    models.map((m) => m.name),
  );
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-bench-import-'));
  const config = loadConfig({
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    DATA_DIR: scratch,
    WEB_DIST: path.join(scratch, 'no-web'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const app = await buildApp({ config, db: handle.db, clock: () => new Date() });
  try {
    await app.ready();
    const post = async (dryRun: boolean) => {
      const started = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: `${OPS_API}/fleet/import?dryRun=${dryRun}`,
        headers: { cookie: `${OPS_SESSION_COOKIE}=${token}`, 'content-type': 'text/csv' },
        payload: csv,
      });
      const seconds = (performance.now() - started) / 1000;
      const body = res.json<{ imported?: number; errors?: unknown[] }>();
      if (res.statusCode !== 200 || (body.errors?.length ?? 0) > 0)
        throw new Error(`The import answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
      if (!dryRun && body.imported !== rows) throw new Error(`The import wrote ${body.imported} cars of ${rows}.`);
      return seconds;
    };
    const dryRunSeconds = await post(true);
    const importSeconds = await post(false);
    return { rows, csvBytes: Buffer.byteLength(csv), dryRunSeconds, importSeconds };
  } finally {
    await app.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

export function importFigures(engine: 'pg' | 'pglite', m: ImportMeasurement): Record<string, number> {
  return { [`import.${engine}.dryRun`]: m.dryRunSeconds, [`import.${engine}.commit`]: m.importSeconds };
}

export const describeImport = (engine: string, m: ImportMeasurement) =>
  `  ${engine}: ${m.rows} rows (${(m.csvBytes / 1024).toFixed(0)} KB): dry run ${m.dryRunSeconds.toFixed(2)} s, import ${m.importSeconds.toFixed(2)} s`;
