import { type Kysely, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, connectPGlite, connectPostgres } from '../src/db/connect.ts';
import type { Database } from '../src/db/schema.ts';
import { createScratchDatabase } from '../src/db/scratch.ts';
import { type Engine, type TestContext, TEST_NOW, createTestContext, engines } from './harness.ts';
import { seedDemo } from '../src/seed/seed.ts';
import { migrateAndSeed } from './templates.ts';

/**
 * What a database holds, leaving out what differs by construction between two databases made the
 * same way: values the database draws itself (random ids, the time a row was written), the secret
 * migration 0004 draws, and when each migration ran.
 */
async function contents(db: Kysely<Database>) {
  const { rows: columns } = await sql<{ table: string; column: string; type: string; default: string | null }>`
    select table_name as table, column_name as column, data_type as type, column_default as default
    from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`.execute(db);
  const { rows: indexes } = await sql<{ def: string }>`
    select indexdef as def from pg_indexes where schemaname = 'public' order by indexname`.execute(db);
  const drawn = (c: (typeof columns)[number]) =>
    /now\(\)|gen_random_uuid\(\)|nextval\(/.test(c.default ?? '') ||
    (c.table === 'app_secrets' && c.column === 'value') ||
    // A car's blocks point at the drawn ids of the bookings and holds that make them.
    (c.table === 'car_blocks' && (c.column === 'reservation_id' || c.column === 'hold_id')) ||
    (c.table === 'kysely_migration' && c.column === 'timestamp');
  const rows: Record<string, { count: number; digest: string | null }> = {};
  for (const table of new Set(columns.map((c) => c.table))) {
    const kept = columns.filter((c) => c.table === table && !drawn(c)).map((c) => sql.ref(`t.${c.column}`));
    const row = kept.length ? sql`concat_ws(',', ${sql.join(kept)})` : sql`''`;
    const { rows: summary } = await sql<{ count: number; digest: string | null }>`
      select count(*)::int as count, md5(string_agg(${row}, '|' order by ${row})) as digest
      from ${sql.table(table)} as t`.execute(db);
    rows[table] = summary[0]!;
  }
  return { columns, indexes: indexes.map((i) => i.def), rows };
}

/** A database migrated from nothing, as every test database was before the templates. */
async function fromNothing(engine: Engine): Promise<{ handle: DatabaseHandle; drop(): Promise<void> }> {
  if (engine === 'pglite') {
    const handle = await connectPGlite('memory://');
    await migrateAndSeed(handle, null);
    return { handle, drop: () => handle.close() };
  }
  const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'ampere_test');
  const handle = await connectPostgres(scratch.url, 2);
  await migrateAndSeed(handle, null);
  return {
    handle,
    drop: async () => {
      await handle.close();
      await scratch.drop();
    },
  };
}

describe.each(engines())('a test database on %s', (engine) => {
  const open: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const o of open) await o.close();
  });

  // Two databases made and read whole: the time of a test file of its own, not of one test. One
  // database made from nothing serves both comparisons: migrated, then seeded (decision 078).
  it('unseeded and seeded, copied from the run’s templates, holds what migrating and seeding from nothing gives', async () => {
    const fresh = await fromNothing(engine);
    open.push({ close: fresh.drop });
    for (const seed of [false, true]) {
      if (seed) await seedDemo(fresh.handle.db, TEST_NOW);
      const ctx: TestContext = await createTestContext(engine, { seed });
      open.push(ctx);
      const copied = await contents(ctx.handle.db);
      expect(Object.keys(copied.rows).length).toBeGreaterThan(20);
      expect(copied.rows.vehicles!.count).toBe(seed ? 180 : 0);
      expect(copied, seed ? 'the demo template' : 'the bare template').toEqual(await contents(fresh.handle.db));
    }
  }, 120_000);
});
