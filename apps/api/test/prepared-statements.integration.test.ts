import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { scratchOnServer } from './harness.ts';
import { PREPARED_PER_CONNECTION, connectPostgres } from '../src/db/connect.ts';

/**
 * The server pool prepares each parameterised statement once per connection (decision 102). Only a
 * PostgreSQL server has named statements to look at. Skipped without TEST_DATABASE_URL.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('prepared statements on postgres', () => {
  // One connection, so every call below lands on the same session.
  const server = scratchOnServer('ampere_prepared', async (db) => {
    await sql`create table notes (id int primary key, body text not null)`.execute(db);
    await sql`insert into notes values (1, 'first'), (2, 'second')`.execute(db);
  });

  const prepared = async () =>
    (
      await sql<{ statement: string }>`select statement from pg_prepared_statements order by statement`.execute(
        server.pool.db,
      )
    ).rows.map((r) => r.statement);

  it('prepares a statement with parameters once and answers each call with its own values', async () => {
    const body = (id: number) =>
      server.pool.db
        .selectFrom('notes' as never)
        .select('body' as never)
        .where('id' as never, '=', id as never)
        .execute();
    expect(await body(1)).toEqual([{ body: 'first' }]);
    expect(await body(2)).toEqual([{ body: 'second' }]);
    const statements = (await prepared()).filter((s) => s.includes('from "notes"'));
    expect(statements).toHaveLength(1);
    // The catalogue query itself has no parameters: it ran unnamed.
    expect((await prepared()).some((s) => s.includes('pg_prepared_statements'))).toBe(false);
  });

  it('after a table changes shape under a prepared select *, one call fails and the next prepares again', async () => {
    const all = (id: number) =>
      sql<Record<string, unknown>>`select * from notes where id = ${id}`.execute(server.pool.db).then((r) => r.rows);
    expect(await all(1)).toEqual([{ id: 1, body: 'first' }]);
    await sql`alter table notes add column pinned boolean not null default false`.execute(server.pool.db);
    await expect(all(1)).rejects.toMatchObject({ code: '0A000' });
    expect(await all(1)).toEqual([{ id: 1, body: 'first', pinned: false }]);
    expect(await all(2)).toEqual([{ id: 2, body: 'second', pinned: false }]);
  });

  it(`keeps at most ${PREPARED_PER_CONNECTION} statements a connection and runs the rest unnamed`, async () => {
    const fresh = await connectPostgres(server.url, 1);
    try {
      for (let i = 0; i < PREPARED_PER_CONNECTION + 5; i++) {
        const { rows } = await sql<{ n: number }>`select ${i}::int + ${sql.raw(String(i))} as n`.execute(fresh.db);
        expect(rows[0]!.n).toBe(2 * i);
      }
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(
        fresh.db,
      );
      expect(rows[0]!.n).toBe(PREPARED_PER_CONNECTION);
    } finally {
      await fresh.close();
    }
  });

  it('with prepared statements off (a transaction-mode pooler), nothing is prepared', async () => {
    const unnamed = await connectPostgres(server.url, 1, { prepared: false });
    try {
      for (const id of [1, 2, 1])
        await unnamed.db
          .selectFrom('notes' as never)
          .select('body' as never)
          .where('id' as never, '=', id as never)
          .execute();
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(
        unnamed.db,
      );
      expect(rows[0]!.n).toBe(0);
    } finally {
      await unnamed.close();
    }
  });
  it("makes the same rows as pg's own client, from every kind of column the API reads (decision 111)", async () => {
    const text = `select 7::int4 as n, 9007199254740991::int8 as big, 12.50::numeric as cents, true as yes, null::text as nothing,
        '2026-11-28'::date as day, '2026-11-28 23:10:05.123+00'::timestamptz as at, '{"a":[1,"b"]}'::jsonb as doc,
        array['x', null, 'y z'] as list, 'a' as same, 'b' as same, g.i as i
      from generate_series(1, 3) g(i) where g.i >= $1`;
    const plain = new pg.Client({ connectionString: server.url });
    await plain.connect();
    try {
      const expected = (await plain.query(text, [2])).rows;
      for (const db of [server.pool.db, (await connectPostgres(server.url, 1, { prepared: false })).db]) {
        for (let run = 0; run < 2; run++) {
          const { rows } = await db.executeQuery(CompiledQuery.raw(text, [2]));
          expect(rows).toEqual(expected);
          expect(rows.map((r) => Object.keys(r as object))).toEqual(expected.map((r) => Object.keys(r)));
        }
        if (db !== server.pool.db) await db.destroy();
      }
      expect(expected[0]).toMatchObject({
        n: 7,
        big: 9007199254740991,
        cents: 12.5,
        day: '2026-11-28',
        same: 'b',
        i: 2,
      });
      expect(expected[0]!.at).toEqual(new Date('2026-11-28T23:10:05.123Z'));
    } finally {
      await plain.end();
    }
  });

  it('unnamed, a statement whose table changed shape answers with the new columns at once', async () => {
    const unnamed = await connectPostgres(server.url, 1, { prepared: false });
    try {
      await sql`create table shapes (id int primary key, body text not null)`.execute(unnamed.db);
      await sql`insert into shapes values (1, 'one')`.execute(unnamed.db);
      const all = () => sql<Record<string, unknown>>`select * from shapes where id = ${1}`.execute(unnamed.db);
      expect((await all()).rows).toEqual([{ id: 1, body: 'one' }]);
      await sql`alter table shapes alter column id type bigint, add column seen timestamptz default '2026-01-02T03:04:05Z'`.execute(
        unnamed.db,
      );
      expect((await all()).rows).toEqual([{ id: 1, body: 'one', seen: new Date('2026-01-02T03:04:05Z') }]);
    } finally {
      await unnamed.close();
    }
  });
});
