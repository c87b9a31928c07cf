import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchOnServer } from './harness.ts';
import { type DatabaseHandle, connectPGlite, connectPostgres } from '../src/db/connect.ts';
import type { Database } from '../src/db/schema.ts';
import { markedForCommit } from '../src/db/sent-with-commit.ts';
import { lastStatement, transact } from '../src/db/transact.ts';

/**
 * A transaction's last statement goes to the server with its `commit` (decision 110). What a caller
 * can see must not change: the writes before it and its own commit together or not at all, a
 * refused statement or a refused commit leaves nothing written and the connection as good as
 * before, and a transaction that is joined (not opened) by the work is not committed by it. Both
 * kinds of server pool, and the embedded database, which commits when asked as before. The server
 * pools are skipped without TEST_DATABASE_URL.
 */

const NOTES = `create table notes (
  id int primary key,
  body text not null,
  -- Checked at commit: a note may point at a later one that must exist by then.
  next_id int references notes (id) deferrable initially deferred
)`;

type Notes = Kysely<Database>;
const insert = (db: Notes, id: number, body: string, nextId: number | null = null) =>
  db
    .insertInto('notes' as never)
    .values({ id, body, next_id: nextId } as never)
    .returning(['id' as never, 'body' as never]);
const insertReturningBody = (db: Notes, id: number, body: string, nextId: number | null = null) =>
  lastStatement(insert(db, id, body, nextId), (rows) => (rows as { body: string }[]).map((r) => r.body));

function suite(
  open: () => Promise<{ handle: DatabaseHandle; bodies: () => Promise<string[]>; close(): Promise<void> }>,
) {
  let handle: DatabaseHandle;
  let bodies: () => Promise<string[]>;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, bodies, close } = await open());
  });
  afterAll(async () => {
    await close?.();
  });

  it('commits the writes before the last statement with it, and answers from its rows', async () => {
    const answer = await transact(handle.db, async (trx) => {
      await insert(trx, 1, 'first').execute();
      return insertReturningBody(trx, 2, 'last');
    });
    expect(answer).toEqual(['last']);
    expect(await bodies()).toEqual(['first', 'last']);
  });

  it('a transaction of one statement commits it', async () => {
    expect(await transact(handle.db, async (trx) => insertReturningBody(trx, 3, 'alone'))).toEqual(['alone']);
    expect(await bodies()).toContain('alone');
  });

  it('a last statement the server refuses takes the writes before it back, and the connection goes on', async () => {
    await expect(
      transact(handle.db, async (trx) => {
        await insert(trx, 4, 'undone').execute();
        return insertReturningBody(trx, 1, 'a second id 1');
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await bodies()).not.toContain('undone');
    expect(await transact(handle.db, async (trx) => insertReturningBody(trx, 5, 'after a refusal'))).toEqual([
      'after a refusal',
    ]);
    expect(await bodies()).toContain('after a refusal');
  });

  it('a commit the server refuses fails the call and leaves nothing written', async () => {
    // Note 6 points at a note 99 that never comes: the foreign key, deferred, refuses the commit.
    await expect(
      transact(handle.db, async (trx) => {
        await insert(trx, 7, 'undone too').execute();
        return insertReturningBody(trx, 6, 'points nowhere', 99);
      }),
    ).rejects.toMatchObject({ code: '23503' });
    expect(await bodies()).not.toContain('points nowhere');
    expect(await bodies()).not.toContain('undone too');
    expect(await transact(handle.db, async (trx) => insertReturningBody(trx, 8, 'after a refused commit'))).toEqual([
      'after a refused commit',
    ]);
  });

  it('work that joins an open transaction does not commit it', async () => {
    await expect(
      handle.db.transaction().execute(async (outer) => {
        const joined = await transact(outer, async (trx) => insertReturningBody(trx, 9, 'joined'));
        expect(joined).toEqual(['joined']);
        await insert(outer, 10, 'after the joined work').execute();
        throw new Error('the outer transaction rolls back');
      }),
    ).rejects.toThrow('the outer transaction rolls back');
    expect(await bodies()).not.toContain('joined');
    expect(await bodies()).not.toContain('after the joined work');
  });
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('a transaction whose commit rides with its last statement', () => {
  const observer = scratchOnServer('ampere_sent_with_commit', (db) => sql.raw(NOTES).execute(db));
  const bodies = async () =>
    (await sql<{ body: string }>`select body from notes order by id`.execute(observer.pool.db)).rows.map((r) => r.body);

  describe.each([
    ['prepared statements', true],
    ['prepared statements off', false],
  ] as const)('%s', (_label, prepared) => {
    suite(async () => {
      await sql`truncate notes`.execute(observer.pool.db);
      // One connection, so every transaction below runs on the same session after the one before.
      const handle = await connectPostgres(observer.url, 1, { prepared });
      return { handle, bodies, close: () => handle.close() };
    });
  });

  it('sends a one-statement transaction to the server in one round trip, and two statements in two', async () => {
    await sql`truncate notes`.execute(observer.pool.db);
    const handle = await connectPostgres(observer.url, 1);
    const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const query = proto.query;
    let calls = 0;
    proto.query = function (this: unknown, ...args: unknown[]) {
      calls += 1;
      return query.apply(this, args);
    };
    try {
      await transact(handle.db, async (trx) => insertReturningBody(trx, 1, 'one trip'));
      expect(calls).toBe(1);
      calls = 0;
      await transact(handle.db, async (trx) => {
        await insert(trx, 2, 'two').execute();
        return insertReturningBody(trx, 3, 'trips');
      });
      expect(calls).toBe(2);
    } finally {
      proto.query = query;
      await handle.close();
    }
    expect(await bodies()).toEqual(['one trip', 'two', 'trips']);
  });

  it('refuses a statement sent after the one that carried the commit, which stays committed', async () => {
    await sql`truncate notes`.execute(observer.pool.db);
    const handle = await connectPostgres(observer.url, 1);
    try {
      await expect(
        handle.db.transaction().execute(async (trx) => {
          await trx.executeQuery(markedForCommit(insert(trx, 1, 'committed early').compile()));
          await insert(trx, 2, 'too late').execute();
        }),
      ).rejects.toThrow("A statement followed the one sent with its transaction's commit");
      expect(await bodies()).toEqual(['committed early']);
      // The connection goes on as usual afterwards.
      await transact(handle.db, async (trx) => insertReturningBody(trx, 3, 'next'));
      expect(await bodies()).toEqual(['committed early', 'next']);
    } finally {
      await handle.close();
    }
  });
});

describe('a last statement on the embedded database', () => {
  suite(async () => {
    const handle = await connectPGlite('memory://');
    await sql.raw(NOTES).execute(handle.db);
    const bodies = async () =>
      (await sql<{ body: string }>`select body from notes order by id`.execute(handle.db)).rows.map((r) => r.body);
    return { handle, bodies, close: () => handle.close() };
  });
});
