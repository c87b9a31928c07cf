import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchOnServer } from './harness.ts';
import { type DatabaseHandle, connectPostgres } from '../src/db/connect.ts';

/**
 * A transaction's `begin` goes to the server with its first statement (decision 104). What a caller
 * can see must not change: the statements run inside one transaction, commit together, roll back
 * together, and a failure of the first one leaves the connection as good as before. Both kinds of
 * server pool, with prepared statements and without. Skipped without TEST_DATABASE_URL.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('a transaction whose begin rides with its first statement', () => {
  /** A second pool that reads what the first has committed. */
  const observer = scratchOnServer('ampere_deferred_begin', (db) =>
    sql`create table notes (id int primary key, body text not null)`.execute(db),
  );

  const bodies = async () =>
    (await sql<{ body: string }>`select body from notes order by id`.execute(observer.pool.db)).rows.map((r) => r.body);
  const insert = (db: DatabaseHandle['db'], id: number, body: string) =>
    db
      .insertInto('notes' as never)
      .values({ id, body } as never)
      .execute();

  describe.each([
    ['prepared statements', true],
    ['prepared statements off', false],
  ] as const)('%s', (_label, prepared) => {
    let handle: DatabaseHandle;
    beforeAll(async () => {
      await sql`truncate notes`.execute(observer.pool.db);
      // One connection, so every transaction below runs on the same session after the one before.
      handle = await connectPostgres(observer.url, 1, { prepared });
    });
    afterAll(async () => {
      await handle?.close();
    });

    it('runs every statement of the transaction in one snapshot, the first one included', async () => {
      const times = await handle.db.transaction().execute(async (trx) => {
        const first = await sql<{ at: string }>`select now()::text as at, ${1}::int as one`.execute(trx);
        await sql`select pg_sleep(${0.02})`.execute(trx);
        const second = await sql<{ at: string }>`select now()::text as at, ${2}::int as two`.execute(trx);
        return [first.rows[0]!.at, second.rows[0]!.at];
      });
      // Outside a transaction each statement has its own now(); inside one they share its start.
      expect(times[0]).toBe(times[1]);
    });

    it('commits the writes together and rolls them back together', async () => {
      await handle.db.transaction().execute(async (trx) => {
        await insert(trx, 1, 'kept');
        await insert(trx, 2, 'kept too');
      });
      await expect(
        handle.db.transaction().execute(async (trx) => {
          await insert(trx, 3, 'undone');
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await bodies()).toEqual(['kept', 'kept too']);
    });

    it('a transaction that sends nothing ends cleanly and the next one starts afresh', async () => {
      await handle.db.transaction().execute(async () => undefined);
      await expect(
        handle.db.transaction().execute(async () => {
          throw new Error('nothing sent');
        }),
      ).rejects.toThrow('nothing sent');
      await insert(handle.db, 4, 'after empty ones');
      // Seen from another session: it committed on its own, not inside a transaction left open.
      expect(await bodies()).toContain('after empty ones');
    });

    it('a first statement without parameters still runs inside the transaction', async () => {
      await expect(
        handle.db.transaction().execute(async (trx) => {
          await sql`insert into notes values (5, 'plain text, no parameters')`.execute(trx);
          throw new Error('roll it back');
        }),
      ).rejects.toThrow('roll it back');
      expect(await bodies()).not.toContain('plain text, no parameters');
    });

    it('a first statement the server refuses fails alone, and the same statement works once it can', async () => {
      const readMissing = (db: DatabaseHandle['db']) =>
        db.transaction().execute((trx) =>
          trx
            .selectFrom(`later_${prepared ? 'p' : 'u'}` as never)
            .select('id' as never)
            .where('id' as never, '=', 1 as never)
            .execute(),
        );
      await expect(readMissing(handle.db)).rejects.toMatchObject({ code: '42P01' });
      // The connection is not left in a failed transaction.
      await insert(handle.db, 6, 'after a refusal');
      expect(await bodies()).toContain('after a refusal');
      await sql`create table ${sql.id(`later_${prepared ? 'p' : 'u'}`)} (id int primary key)`.execute(observer.pool.db);
      await sql`insert into ${sql.id(`later_${prepared ? 'p' : 'u'}`)} values (1)`.execute(observer.pool.db);
      expect(await readMissing(handle.db)).toEqual([{ id: 1 }]);
    });

    it('a unique violation in the first statement rolls back and leaves the connection usable', async () => {
      await expect(
        handle.db.transaction().execute(async (trx) => {
          await insert(trx, 1, 'a second id 1');
        }),
      ).rejects.toMatchObject({ code: '23505' });
      const { rows } = await handle.db
        .transaction()
        .execute((trx) => sql<{ n: number }>`select count(*)::int as n from notes where id = ${1}`.execute(trx));
      expect(rows[0]!.n).toBe(1);
    });
  });
});
