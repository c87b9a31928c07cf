import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, connectPGlite } from '../src/db/connect.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

const template = fileURLToPath(new URL('../pglite-template', import.meta.url));

/** The cluster's identifier, which initdb draws anew each time it runs. */
async function systemIdentifier(handle: DatabaseHandle): Promise<string> {
  const { rows } = await sql<{ id: string }>`select system_identifier::text as id from pg_control_system()`.execute(
    handle.db,
  );
  return rows[0]!.id;
}

/** What a person or the app could tell apart between two clusters. */
async function describeCluster(handle: DatabaseHandle) {
  const databases = await sql`
    select datname, encoding, datcollate, datctype, datistemplate, datallowconn
    from pg_database order by datname`.execute(handle.db);
  const settings = await sql`
    select current_user as "user", current_database() as database,
      current_setting('server_version') as version, current_setting('server_encoding') as encoding,
      current_setting('TimeZone') as zone,
      (select count(*) from pg_class) as relations, (select count(*) from pg_proc) as functions,
      (select count(*) from pg_namespace) as schemas`.execute(handle.db);
  return { databases: databases.rows, settings: settings.rows };
}

describe('a new embedded database made from the repository’s template (decision 107)', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is the cluster initdb makes, takes the migrations, and keeps its data across restarts', async () => {
    const initdb = await connectPGlite('memory://');
    const expected = await describeCluster(initdb);
    const drawn = await systemIdentifier(initdb).finally(() => initdb.close());

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-template-'));
    dirs.push(dataDir);
    const first = await connectPGlite(dataDir, { template });
    try {
      expect(await describeCluster(first)).toEqual(expected);
      // Made from the template, not by initdb: the template's identifier, not a new one.
      const identifier = await systemIdentifier(first);
      expect(identifier).not.toBe(drawn);
      const other = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-template-'));
      dirs.push(other);
      const twin = await connectPGlite(other, { template });
      expect(await systemIdentifier(twin).finally(() => twin.close())).toBe(identifier);
      await migrateToLatest(first.db);
      await sql`create table kept (note text not null)`.execute(first.db);
      await sql`insert into kept (note) values ('written before the restart')`.execute(first.db);
    } finally {
      await first.close();
    }
    // A second start finds its own cluster and does not start over from the template.
    const again = await connectPGlite(dataDir, { template });
    try {
      const rows = await sql<{ note: string }>`select note from kept`.execute(again.db);
      expect(rows.rows).toEqual([{ note: 'written before the restart' }]);
    } finally {
      await again.close();
    }
  }, 120_000);
});
