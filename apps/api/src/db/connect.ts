import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.ts';
import { DEFAULT_POOL_SIZE } from '../config.ts';
import type { Database } from './schema.ts';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
  /** The engine under Kysely, for what Kysely cannot do: a LISTEN session (realtime fan-out). */
  engine: DatabaseEngine;
}

/** The server's connection string (a LISTEN needs its own session, not a pooled one), or the PGlite instance. */
export type DatabaseEngine = { kind: 'postgres'; connectionString: string } | { kind: 'pglite'; pglite: PGlite };

const engines = new WeakMap<Kysely<Database>, DatabaseEngine>();

/** The engine under a Kysely made by connectPostgres or connectPGlite; undefined for any other. */
export function engineOf(db: Kysely<Database>): DatabaseEngine | undefined {
  return engines.get(db);
}

// Cents are integers and counts are bigints: read bigint (int8) and numeric as numbers.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));
// A calendar date (a birthday, a licence expiry) stays the text 'YYYY-MM-DD': never a Date in the
// server's time zone.
pg.types.setTypeParser(1082, (v) => v);

/** How many statements one connection keeps prepared; later new ones run unnamed, as before. */
export const PREPARED_PER_CONNECTION = 1000;

/** PostgreSQL's "cached plan must not change result type": a table under a prepared `select *` changed. */
const PLAN_CHANGED_RESULT = '0A000';

/**
 * A pooled connection that sends each parameterised statement as a named prepared statement, named
 * by a hash of its text: the server parses (and, after a few runs, plans) it once per connection
 * instead of on every call (decision 102). Text without parameters (begin, commit, migrations) and
 * anything past the first PREPARED_PER_CONNECTION statements runs as before. If a table under a
 * prepared statement changes shape (a migration by another process), the server refuses that
 * statement; the connection then prepares everything again under new names, so only the one call
 * fails.
 */
class PreparingClient extends pg.Client {
  /** The digests of the statements this connection has prepared under the current generation. */
  private readonly named = new Set<string>();
  private generation = 0;

  override query(...args: unknown[]): never {
    const [text, values, callback] = args;
    const call = super.query.bind(this) as (...a: unknown[]) => never;
    if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0 || callback !== undefined)
      return call(...args);
    const digest = digestOf(text);
    if (!this.named.has(digest)) {
      if (this.named.size >= PREPARED_PER_CONNECTION) return call(text, values);
      this.named.add(digest);
    }
    const pending = call({ name: `k${this.generation}_${digest}`, text, values }) as Promise<unknown>;
    return pending.catch((err: unknown) => {
      if ((err as { code?: string }).code === PLAN_CHANGED_RESULT) {
        this.generation += 1;
        this.named.clear();
      }
      throw err;
    }) as never;
  }
}

/** Statement texts' digests, kept for the process's first few thousand texts: a lookup is cheaper than hashing again. */
const digests = new Map<string, string>();
const DIGESTS_KEPT = 5000;

function digestOf(text: string): string {
  let digest = digests.get(text);
  if (digest === undefined) {
    digest = createHash('sha1').update(text).digest('base64url');
    if (digests.size < DIGESTS_KEPT) digests.set(text, digest);
  }
  return digest;
}

/**
 * A pool on the server `url` names. `prepared: false` sends every statement unnamed, as a pooler
 * that hands each transaction any server session (PgBouncer's transaction mode without
 * max_prepared_statements) requires: DATABASE_PREPARED_STATEMENTS=off.
 */
export async function connectPostgres(
  url: string,
  poolSize = DEFAULT_POOL_SIZE,
  opts: { prepared?: boolean } = {},
): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    ...(opts.prepared === false ? {} : { Client: PreparingClient }),
  });
  // An idle connection the server drops (a restart, a failover, an admin) must not crash the
  // process: the pool discards it and opens a new one on the next query.
  pool.on('error', (err) => console.error(`PostgreSQL connection lost: ${err.message}`));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const engine: DatabaseEngine = { kind: 'postgres', connectionString: url };
  engines.set(db, engine);
  return { db, kind: 'postgres', close: () => db.destroy(), engine };
}

/**
 * Embedded Postgres persisted under dataDir; 'memory://' keeps it in memory (tests). `loadDataDir`
 * starts a new database as a copy of another's data directory (a `dumpDataDir` tarball).
 */
export async function connectPGlite(dataDir: string, opts: { loadDataDir?: Blob } = {}): Promise<DatabaseHandle> {
  let location = dataDir;
  if (dataDir !== 'memory://') {
    location = path.join(dataDir, 'pgdata');
    fs.mkdirSync(location, { recursive: true });
  }
  const pglite = await PGlite.create(location, {
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    extensions: { btree_gist },
    parsers: { 20: (v: string) => Number(v), 1700: (v: string) => Number(v), 1082: (v: string) => v },
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  const engine: DatabaseEngine = { kind: 'pglite', pglite };
  engines.set(db, engine);
  return {
    db,
    kind: 'pglite',
    engine,
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}

export function connectDatabase(opts: {
  databaseUrl?: string | undefined;
  dataDir: string;
  poolSize?: number;
  prepared?: boolean;
}): Promise<DatabaseHandle> {
  return opts.databaseUrl
    ? connectPostgres(opts.databaseUrl, opts.poolSize, { prepared: opts.prepared ?? true })
    : connectPGlite(opts.dataDir);
}
