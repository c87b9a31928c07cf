import { type Compilable, type CompiledQuery, type Kysely, type Transaction, sql } from 'kysely';
import { busy } from '../http/errors.ts';
import type { Database } from './schema.ts';
import { markedForCommit } from './sent-with-commit.ts';

/**
 * SQLSTATEs after which the whole transaction may simply be run again: the server rolled it back
 * to break a deadlock (40P01) or because it could not be serialized with a concurrent one (40001).
 * Nothing of it was committed.
 */
const RETRYABLE = new Set(['40P01', '40001']);

/** Attempts in all (the first and the retries) before the request is answered 503. */
export const TRANSACTION_ATTEMPTS = 5;

export function isRetryableDatabaseError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && RETRYABLE.has(String((err as { code?: unknown }).code));
}

/** Whether `err` is the database's refusal with this SQLSTATE (and constraint, when given). */
export function isDatabaseError(err: unknown, code: string, constraint?: string): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; constraint?: unknown };
  return e.code === code && (constraint === undefined || e.constraint === constraint);
}

export interface TransactOptions {
  /** Attempts in all; default TRANSACTION_ATTEMPTS. */
  attempts?: number;
  /** Waits before a retry are drawn between 0 and this many ms times 2^(attempt-1) (capped at 250 ms). */
  backoffMs?: number;
  /** Told of each retry (for logs). */
  onRetry?: (err: unknown, attempt: number) => void;
}

type Effect = () => void | Promise<void>;

/** What a transaction's work came to: its value, or its last statement and that statement's rows. */
type Outcome<T> = { value: T } | { last: LastStatement<T>; rows: unknown[] };

/** What to do once each open transaction commits; forgotten with it when it rolls back. */
const pendingEffects = new WeakMap<Kysely<Database>, Effect[]>();

/**
 * Runs `effect` once what was written through `db` is committed: at once when `db` is not a
 * transaction, else after the transaction `transact` opened commits (never, if it rolls back).
 * For what must not see, or act on, uncommitted rows: a provider call, marking a cache stale.
 */
export async function afterCommit(db: Kysely<Database>, effect: Effect): Promise<void> {
  const pending = db.isTransaction ? pendingEffects.get(db) : undefined;
  if (pending) pending.push(effect);
  else await effect();
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A transaction's last statement, handed back by `transact`'s work for `transact` to send with
 * the transaction's `commit`, in one round trip on the server pool (decision 110): the work can do
 * nothing after it. `answer` makes the result from its rows once the transaction has committed.
 */
export class LastStatement<T> {
  constructor(
    readonly query: CompiledQuery<unknown>,
    readonly answer: (rows: unknown[]) => T,
  ) {}

  /** The same statement, answering `then` of what this one answers. */
  map<U>(then: (value: T) => U): LastStatement<U> {
    return new LastStatement(this.query, (rows) => then(this.answer(rows)));
  }
}

/** `query` as the work's last statement; what `transact` answers is `answer` of its rows. */
export function lastStatement<Row, T>(
  query: Compilable<Row> | CompiledQuery<Row>,
  answer: (rows: Row[]) => T,
): LastStatement<T> {
  const compiled = 'compile' in query ? query.compile() : query;
  return new LastStatement(compiled, answer as (rows: unknown[]) => T);
}

/**
 * Runs `work` in one transaction, and runs it again in a new one when the database aborted it
 * for a deadlock or a serialization failure, a bounded number of times, waiting a random
 * ("full jitter") and growing time between attempts so that the transactions that collided do
 * not collide again in step. When the attempts run out the request is answered 503 with
 * Retry-After (never a 500): nothing was written.
 *
 * Every multi-row write goes through here. `work` may run more than once, so it must not do
 * anything outside the transaction that cannot be repeated (call a provider, send a message):
 * collect such effects and perform them after this returns. `work` may end by handing back its
 * last statement (`lastStatement`), which then goes to the server with the commit.
 */
export async function transact<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T | LastStatement<T>>,
  opts: TransactOptions = {},
): Promise<T> {
  // Already inside one (an idempotent route runs its handler in the transaction that stores the
  // answer): the work joins it, and whoever opened it commits, retries or rolls back.
  if (db.isTransaction) {
    const value = await work(db as Transaction<Database>);
    if (!(value instanceof LastStatement)) return value;
    return value.answer((await db.executeQuery(value.query)).rows);
  }
  const attempts = opts.attempts ?? TRANSACTION_ATTEMPTS;
  const backoffMs = opts.backoffMs ?? 10;
  for (let attempt = 1; ; attempt++) {
    const effects: Effect[] = [];
    let result: T;
    try {
      const outcome = await db.transaction().execute(async (trx): Promise<Outcome<T>> => {
        pendingEffects.set(trx, effects);
        const value = await work(trx);
        if (!(value instanceof LastStatement)) return { value };
        return { last: value, rows: (await trx.executeQuery(markedForCommit(value.query))).rows };
      });
      result = 'last' in outcome ? outcome.last.answer(outcome.rows) : outcome.value;
    } catch (err) {
      if (!isRetryableDatabaseError(err)) throw err;
      if (attempt >= attempts) throw busy(err);
      opts.onRetry?.(err, attempt);
      await sleep(Math.random() * Math.min(250, backoffMs * 2 ** (attempt - 1)));
      continue;
    }
    for (const effect of effects) await effect();
    return result;
  }
}

/**
 * Runs `work` under a savepoint of the open transaction `trx`. When it throws an error `undo`
 * accepts, what it wrote is rolled back to the savepoint, so the transaction can go on (an error
 * such as a constraint's aborts it otherwise), and the error is thrown on; on success the
 * savepoint is released and its writes stay with the transaction.
 */
export async function withSavepoint<T>(
  trx: Transaction<Database>,
  name: string,
  work: () => Promise<T>,
  undo: (err: unknown) => boolean = () => true,
): Promise<T> {
  const savepoint = sql.id(name);
  await sql`savepoint ${savepoint}`.execute(trx);
  let result: T;
  try {
    result = await work();
  } catch (err) {
    if (undo(err)) await sql`rollback to savepoint ${savepoint}`.execute(trx);
    throw err;
  }
  await sql`release savepoint ${savepoint}`.execute(trx);
  return result;
}
