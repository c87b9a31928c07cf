import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce } from '../src/db/compiled-once.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';

/** The trip view's statements are compiled once per process (decision 102, addendum). */
describe.each(engines())('a statement compiled once on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    await sql`create table lots (name text primary key, city text not null, state text not null)`.execute(
      ctx.handle.db,
    );
    await sql`insert into lots values ('North', 'Nashville', 'TN'), ('South', 'Memphis', 'TN')`.execute(ctx.handle.db);
  });
  afterAll(() => ctx?.close());

  // A table of this test's own, outside the app's schema.
  type Lots = Kysely<{ lots: { name: string; city: string; state: string } }>;
  const lots = (db: unknown) => db as Lots;

  it('answers each call with its own arguments, the same rows as the query built afresh', async () => {
    const byName = compiledOnce((db, name: string, city: string) =>
      lots(db)
        .selectFrom('lots')
        .select(['name', 'city'])
        .where('name', '=', name)
        .where('city', '=', city)
        .where('state', 'in', ['TN', 'KY']),
    );
    const db = ctx.handle.db;
    expect(await byName(db, 'North', 'Nashville')).toEqual([{ name: 'North', city: 'Nashville' }]);
    expect(await byName(db, 'South', 'Memphis')).toEqual([{ name: 'South', city: 'Memphis' }]);
    expect(await byName(db, 'South', 'Nashville')).toEqual([]);
    // Inside a transaction too.
    expect(await db.transaction().execute((trx) => byName(trx, 'North', 'Nashville'))).toHaveLength(1);
  });

  it('refuses, at the first call, a query that changes an argument on its way in', async () => {
    const upper = compiledOnce((db, name: string) =>
      lots(db).selectFrom('lots').select('name').where('name', '=', name.toUpperCase()),
    );
    await expect(upper(ctx.handle.db, 'North')).rejects.toThrow(/argument 0 does not reach/);
  });
});
