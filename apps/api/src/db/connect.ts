import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.ts';
import { type ColumnDescription, type RowShape, rowShapeOf } from './row-shapes.ts';
import { isSentWithCommit, withoutCommitMark } from './sent-with-commit.ts';
import { templateFor } from './pglite-template.ts';
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

/** What a deferred `begin` answers at once; the server runs it in front of the next statement. */
const BEGUN = { command: 'BEGIN', rowCount: null, rows: [], fields: [] };

/** The parts of pg's query and result this file reaches past their types for. */
interface QueryInternals {
  text: string;
  name?: string;
  queryMode?: string;
  callback?: unknown;
  _result: {
    fields: unknown;
    _parsers: unknown;
    _types?: { getTypeParser(oid: number, format: string): (text: string) => unknown };
    addRow(row: unknown): void;
  };
  _rowMode?: string;
  _accumulateRows: boolean;
  _canceledDueToError: unknown;
  _checkForMultirow(): void;
}

/**
 * A statement whose rows are made by the shape its columns last had (row-shapes.ts, decision 111),
 * instead of pg's template copied and filled by name for every row. The pools set no type parsers
 * of their own per connection, so a shape's parsers serve every connection. Handed to pg as a query
 * object, its text and values given apart: pg copies a config object's every property descriptor, a
 * cost on each call.
 */
class RowsQuery extends pg.Query {
  private shape: RowShape | undefined;

  constructor(
    config: { text: string; values: unknown[]; name?: string; queryMode?: 'extended' },
    callback: (err: Error | undefined, res: unknown) => void,
  ) {
    super(config.text, config.values, callback);
    const self = this as unknown as QueryInternals;
    if (config.name !== undefined) self.name = config.name;
    if (config.queryMode !== undefined) self.queryMode = config.queryMode;
  }

  handleRowDescription(msg: { fields: ColumnDescription[] }): void {
    const self = this as unknown as QueryInternals;
    const types = self._result._types ?? pg.types;
    this.shape =
      self._rowMode === undefined
        ? rowShapeOf(self.text, msg.fields, (oid, format) => types.getTypeParser(oid, format as 'text'))
        : undefined;
    if (!this.shape) {
      (pg.Query.prototype as unknown as { handleRowDescription(m: unknown): void }).handleRowDescription.call(
        this,
        msg,
      );
      return;
    }
    self._checkForMultirow();
    const result = self._result;
    result.fields = msg.fields;
    result._parsers = this.shape.parsers;
    self._accumulateRows = Boolean(self.callback) || this.listenerCount('row') === 0;
  }

  handleDataRow(msg: { fields: (string | null)[] }): void {
    if (!this.shape) {
      (pg.Query.prototype as unknown as { handleDataRow(m: unknown): void }).handleDataRow.call(this, msg);
      return;
    }
    const self = this as unknown as QueryInternals;
    if (self._canceledDueToError) return;
    let row: Record<string, unknown>;
    try {
      row = this.shape.build(msg.fields);
    } catch (err) {
      self._canceledDueToError = err;
      return;
    }
    if (this.listenerCount('row') > 0) this.emit('row', row, self._result);
    if (self._accumulateRows) self._result.addRow(row);
  }
}

/**
 * A statement sent with its transaction's `begin` in front of it (decision 104), its `commit`
 * behind it (decision 110), or both, in one write with one sync: the server answers all of it at
 * once. The answers for `begin` (its parse and command complete) and for `commit` (its command
 * complete) are passed over, so the caller sees its statement's result and nothing else; an error
 * in any of them fails this query. A failed statement stops the server before the `commit`, which
 * it then never runs; the transaction is left failed, for the caller's rollback.
 */
class PipelinedQuery extends RowsQuery {
  /** `begin`'s parse answer, still to pass over. */
  beginParse: boolean;
  private beginComplete: boolean;
  private readonly commitAfter: boolean;
  private statementComplete = false;

  constructor(
    config: { text: string; values: unknown[]; name?: string },
    opts: { begin: boolean; commit: boolean },
    callback: (err: Error | undefined, res: unknown) => void,
  ) {
    // A statement without parameters goes by the extended protocol too, so that `commit` can follow it.
    super(opts.commit ? { ...config, queryMode: 'extended' } : config, callback);
    this.beginParse = opts.begin;
    this.beginComplete = opts.begin;
    this.commitAfter = opts.commit;
  }

  prepare(connection: ProtocolConnection): void {
    if (this.beginComplete) {
      connection.parse({ text: 'begin', name: '', types: [] });
      connection.bind({ portal: '', statement: '', values: [] });
      connection.execute({ portal: '', rows: 0 });
    }
    (pg.Query.prototype as unknown as { prepare(c: ProtocolConnection): void }).prepare.call(this, connection);
  }

  /** The statement's execute, then (when asked) `commit`'s, and the one sync. */
  _getRows(connection: ProtocolConnection, rows: number | undefined): void {
    if (!this.commitAfter || rows) {
      (pg.Query.prototype as unknown as { _getRows(c: ProtocolConnection, r?: number): void })._getRows.call(
        this,
        connection,
        rows,
      );
      return;
    }
    connection.execute({ portal: (this as unknown as { portal: string }).portal, rows: 0 });
    connection.parse({ text: 'commit', name: '', types: [] });
    connection.bind({ portal: '', statement: '', values: [] });
    connection.execute({ portal: '', rows: 0 });
    connection.sync();
  }

  handleCommandComplete(msg: unknown, connection: ProtocolConnection): void {
    if (this.beginComplete) {
      this.beginComplete = false;
      return;
    }
    if (this.statementComplete) return; // commit's
    this.statementComplete = this.commitAfter;
    (
      pg.Query.prototype as unknown as { handleCommandComplete(m: unknown, c: ProtocolConnection): void }
    ).handleCommandComplete.call(this, msg, connection);
  }
}

interface ProtocolConnection {
  parse(q: { text: string; name: string; types: unknown[] }): void;
  bind(q: { portal: string; statement: string; values: unknown[] }): void;
  execute(q: { portal: string; rows: number | undefined }): void;
  sync(): void;
}

/**
 * A pooled connection whose `begin` waits for the transaction's first statement and goes to the
 * server with it (decision 104): one round trip less for every transaction, each one a wake-up of
 * the server and of this process. A transaction that ends before any statement never reaches the
 * server. `nameFor` gives a parameterised statement the name it is prepared under, or none.
 */
class DeferredBeginClient extends pg.Client {
  private beginPending = false;
  /** The open transaction's `commit` went to the server with its last statement (decision 110). */
  private committedEarly = false;

  protected nameFor(_text: string): string | undefined {
    return undefined;
  }

  protected forgetPrepared(): void {}

  override query(...args: unknown[]): never {
    const [text, values, callback] = args;
    const call = super.query.bind(this) as (...a: unknown[]) => never;
    if (this.committedEarly) {
      // The transaction is over on the server: only its caller's `commit` may follow, answered here.
      this.committedEarly = false;
      if (typeof text === 'string' && text.trim().toLowerCase() === 'commit' && callback === undefined)
        return Promise.resolve({ command: 'COMMIT', rowCount: null, rows: [], fields: [] }) as never;
      return Promise.reject(
        new Error(
          "A statement followed the one sent with its transaction's commit; that transaction is already committed.",
        ),
      ) as never;
    }
    if (typeof text !== 'string' || !Array.isArray(values) || callback !== undefined) {
      this.flushBegin(call);
      return call(...args);
    }
    const last = isSentWithCommit(text);
    if (values.length === 0 && !last) {
      const control = text.trim().toLowerCase();
      if (control === 'begin' && !this.beginPending) {
        this.beginPending = true;
        return Promise.resolve({ ...BEGUN }) as never;
      }
      if (this.beginPending && (control === 'commit' || control === 'rollback')) {
        // Nothing ran: there is no transaction on the server to end.
        this.beginPending = false;
        return Promise.resolve({ command: control.toUpperCase(), rowCount: null, rows: [], fields: [] }) as never;
      }
      this.flushBegin(call);
      return call(text, values);
    }
    const statement = last ? withoutCommitMark(text) : text;
    const name = this.nameFor(statement);
    const config = name === undefined ? { text: statement, values } : { name, text: statement, values };
    const begin = this.beginPending;
    this.beginPending = false;
    let pending = new Promise<unknown>((resolve, reject) => {
      const done = (err: Error | undefined, res: unknown) => (err ? reject(err) : resolve(res));
      call(begin || last ? new PipelinedQuery(config, { begin, commit: last }, done) : new RowsQuery(config, done));
    });
    if (last)
      pending = pending.then((res) => {
        this.committedEarly = true;
        return res;
      });
    return pending.catch((err: unknown) => {
      if ((err as { code?: string }).code === PLAN_CHANGED_RESULT) this.forgetPrepared();
      // As pg does for the queries it makes: a stack that leads back to the caller, not to the socket's read.
      if (err instanceof Error) Error.captureStackTrace(err);
      throw err;
    }) as never;
  }

  /** Sends a deferred `begin` on its own, ahead of what cannot carry it. */
  private flushBegin(call: (...a: unknown[]) => never): void {
    if (!this.beginPending) return;
    this.beginPending = false;
    (call('begin') as Promise<unknown>).catch(() => {
      // Its failure leaves no transaction; the statement behind it reports what went wrong.
    });
  }

  /** `begin`'s parse answer, in front of the statement's, must not mark the statement as prepared. */
  _handleParseComplete(): void {
    const active = (this as unknown as { _activeQuery?: unknown })._activeQuery;
    if (active instanceof PipelinedQuery && active.beginParse) {
      active.beginParse = false;
      return;
    }
    (pg.Client.prototype as unknown as { _handleParseComplete(): void })._handleParseComplete.call(this);
  }
}

/**
 * A pooled connection that sends each parameterised statement as a named prepared statement, named
 * by a hash of its text: the server parses (and, after a few runs, plans) it once per connection
 * instead of on every call (decision 102). Text without parameters (begin, commit, migrations) and
 * anything past the first PREPARED_PER_CONNECTION statements runs as before. If a table under a
 * prepared statement changes shape (a migration by another process), the server refuses that
 * statement; the connection then prepares everything again under new names, so only the one call
 * fails.
 */
class PreparingClient extends DeferredBeginClient {
  /** The digests of the statements this connection has prepared under the current generation. */
  private readonly named = new Set<string>();
  private generation = 0;

  protected override nameFor(text: string): string | undefined {
    const digest = digestOf(text);
    if (!this.named.has(digest)) {
      if (this.named.size >= PREPARED_PER_CONNECTION) return undefined;
      this.named.add(digest);
    }
    return `k${this.generation}_${digest}`;
  }

  protected override forgetPrepared(): void {
    this.generation += 1;
    this.named.clear();
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
    Client: opts.prepared === false ? DeferredBeginClient : PreparingClient,
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
 * starts a new database as a copy of another's data directory (a `dumpDataDir` tarball);
 * `template`, the folder of the empty cluster kept in the repository, starts a new data directory
 * from it instead of running initdb (decision 107).
 */
export async function connectPGlite(
  dataDir: string,
  opts: { loadDataDir?: Blob; template?: string } = {},
): Promise<DatabaseHandle> {
  let location = dataDir;
  let loadDataDir = opts.loadDataDir;
  if (dataDir !== 'memory://') {
    location = path.join(dataDir, 'pgdata');
    if (!loadDataDir && opts.template) loadDataDir = templateFor(location, opts.template) ?? undefined;
    fs.mkdirSync(location, { recursive: true });
  }
  const pglite = await PGlite.create(location, {
    ...(loadDataDir ? { loadDataDir } : {}),
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
  /** The embedded database's empty-cluster template (config.pgliteTemplate). */
  pgliteTemplate?: string;
  poolSize?: number;
  prepared?: boolean;
}): Promise<DatabaseHandle> {
  return opts.databaseUrl
    ? connectPostgres(opts.databaseUrl, opts.poolSize, { prepared: opts.prepared ?? true })
    : connectPGlite(opts.dataDir, opts.pgliteTemplate ? { template: opts.pgliteTemplate } : {});
}
