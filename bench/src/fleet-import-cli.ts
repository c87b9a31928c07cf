/**
 * `npm run bench:import`: the fleet's CSV import of BENCH_IMPORT_ROWS (10,000) cars through the
 * real API, a dry run then the import, on a scratch PostgreSQL database and on PGlite in memory;
 * recorded in bench/results/.
 */
import path from 'node:path';
import { connectPostgres, createScratchPostgres, openPGliteInMemory } from './databases.ts';
import { describeImport, importFigures, measureImport } from './fleet-import.ts';
import { newRecord } from './record.ts';
import { summarizeAndRecord } from './report.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const rows = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function main(): Promise<void> {
  const record = newRecord(root, 'import', { rows });
  console.log(`Fleet CSV import, ${rows} cars, through the API (a dry run, then the import):`);
  const scratch = await createScratchPostgres(adminUrl);
  try {
    const handle = await connectPostgres(scratch.url, 5);
    try {
      const pg = await measureImport(handle, rows, scratch.url);
      console.log(describeImport('PostgreSQL', pg));
      Object.assign(record.figures, importFigures('pg', pg));
    } finally {
      await handle.close();
    }
  } finally {
    await scratch.drop();
  }
  const lite = await openPGliteInMemory();
  try {
    const m = await measureImport(lite, rows);
    console.log(describeImport('PGlite', m));
    Object.assign(record.figures, importFigures('pglite', m));
  } finally {
    await lite.close();
  }
  console.log('');
  summarizeAndRecord(root, record);
}

main()
  .catch((err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  })
  .finally(() => setTimeout(() => process.exit(), 100).unref());
