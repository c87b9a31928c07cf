import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  url: string;
  name: string;
  /** Drops the database once the connections to it have closed (forcing any that linger). */
  drop(): Promise<void>;
}

async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A throwaway database on the server the admin URL names, for tests and benchmarks: empty, or a copy
 * of `template` (a database nobody is connected to, as PostgreSQL requires of one it copies).
 */
export async function createScratchDatabase(
  adminUrl: string,
  prefix: string,
  opts: { template?: string } = {},
): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (c) =>
    c.query(opts.template ? `create database ${name} template ${opts.template}` : `create database ${name}`),
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () =>
      withAdmin(adminUrl, async (c) => {
        // Closed pools may still be hanging up: wait for them, so the forced drop does not cut a
        // connection mid-goodbye (which its pool reports as lost).
        for (let i = 0; i < 100; i++) {
          const res = await c.query<{ n: number }>(
            'select count(*)::int as n from pg_stat_activity where datname = $1',
            [name],
          );
          if (res.rows[0]!.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await c.query(`drop database if exists ${name} with (force)`);
      }),
  };
}
