import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/schema.ts';
import { AppError, type ErrorCode, invalid, unprocessable } from './errors.ts';
import { transact, withSavepoint } from '../db/transact.ts';
import { claimKey, deleteKeysClaimedBefore, lockClaimedKey, storeAnswer } from './idempotency-repository.ts';
import { authenticate } from './session.ts';

/** The header a client sends to make a POST safe to retry. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_MISMATCH = 'This Idempotency-Key was used with a different request.';

/** The Idempotency-Key header's value, or null when none was sent; 1–200 characters. */
export function idempotencyKeyOf(request: FastifyRequest): string | null {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return null;
  const value = (Array.isArray(raw) ? raw[0] : raw) ?? '';
  if (value.length < 1 || value.length > 200)
    throw invalid('Idempotency-Key must be 1 to 200 characters.', 'Idempotency-Key');
  return value;
}

/** A stable hash of what a request asks for: its method, path and (parsed) body. */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${JSON.stringify(body ?? null)}`)
    .digest('hex');
}

export interface IdempotentOutcome {
  statusCode: number;
  /** The response body exactly as stored, for every answer to this key. */
  json: string;
  /** True when this answer was stored by an earlier request. */
  replayed: boolean;
}

type Work = (trx: Transaction<Database>) => Promise<{ statusCode: number; body: unknown }>;

/**
 * Runs `fn` at most once per (renter, key) and answers every request with that key alike.
 *
 * Why it holds under concurrent retries, on one API instance or many:
 * 1. Everything happens in one database transaction: claiming the key, the work, storing the
 *    answer. The claim is `insert … on conflict do nothing`. A second request with the same key
 *    blocks inside that insert on the first one's uncommitted row (the primary key's unique
 *    index), so it cannot proceed until the first commits or rolls back.
 * 2. If the first commits, the second's insert does nothing, and its `select … for update` (a new
 *    snapshot under READ COMMITTED) reads the committed row with the stored answer: it replays
 *    it. The work never ran twice, because the key row and the work's rows commit together.
 * 3. If the first rolls back (a 5xx, a crash, a lost connection), its key row vanishes with its
 *    work, and the second's insert succeeds: it does the work itself. So a 5xx is never stored
 *    and a retry is allowed.
 * 4. A 4xx from the work is an answer, not a failure: the work runs under a savepoint, is rolled
 *    back to it (an error such as the exclusion constraint's aborts the transaction otherwise),
 *    and the error is stored, so a retry gets the same 4xx.
 * The same key with another method, path or body is refused with a 422 and changes nothing.
 * Responses are stored as jsonb and every answer — the first included — is the stored value read
 * back, so all of them are byte-for-byte identical.
 */
export async function withIdempotency(
  db: Kysely<Database>,
  clock: Clock,
  userId: string,
  key: string,
  method: string,
  path: string,
  hash: string,
  fn: Work,
): Promise<IdempotentOutcome> {
  return transact(db, async (trx) => {
    if (!(await claimKey(trx, { userId, key, method, path, requestHash: hash }, clock()))) {
      const row = await lockClaimedKey(trx, userId, key);
      if (row.method !== method || row.path !== path || row.request_hash !== hash)
        throw unprocessable(IDEMPOTENCY_MISMATCH, 'Idempotency-Key');
      // A row without an answer cannot be seen: it is written with its answer in one transaction.
      if (row.status_code === null) throw new Error('idempotency key committed without a response');
      return { statusCode: row.status_code, json: JSON.stringify(row.response_body), replayed: true };
    }
    let answer: { statusCode: number; body: unknown };
    try {
      answer = await withSavepoint(trx, 'idempotent_work', () => fn(trx), isAnswer);
    } catch (err) {
      if (!isAnswer(err)) throw err;
      answer = { statusCode: err.statusCode, body: errorBody(err) };
    }
    const stored = await storeAnswer(trx, userId, key, answer);
    return { statusCode: answer.statusCode, json: JSON.stringify(stored), replayed: false };
  });
}

/** An error that is the request's answer (a 4xx), stored like a success; anything else is a failure. */
function isAnswer(err: unknown): err is AppError {
  return err instanceof AppError && err.statusCode < 500;
}

/** Where idempotent routes keep their keys (see installIdempotency). */
export interface IdempotencyStore {
  db: Kysely<Database>;
  clock: Clock;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by installIdempotency; routes registered with `idempotent: true` need it. */
    idempotency?: IdempotencyStore;
  }
}

/** Lets routes registered with `idempotent: true` keep their keys in `db`; call before adding them. */
export function installIdempotency(app: FastifyInstance, store: IdempotencyStore): void {
  app.decorate('idempotency', store);
}

/**
 * An idempotent route's answer to a request carrying an Idempotency-Key: `work` (the route's
 * handler, given the transaction to write through) runs at most once per signed-in renter and key,
 * and every request with that key gets the stored answer. Keys belong to a renter, so the request
 * must be signed in (a 401 otherwise).
 */
export async function answerOnce(
  store: IdempotencyStore,
  request: FastifyRequest,
  key: string,
  body: unknown,
  work: (trx: Transaction<Database>) => Promise<{ statusCode: number; body: unknown }>,
): Promise<IdempotentOutcome> {
  const renter = await authenticate(request, 'renter');
  const path = request.url.split('?')[0]!;
  return withIdempotency(
    store.db,
    store.clock,
    renter.id,
    key,
    request.method,
    path,
    requestHash(request.method, path, body),
    work,
  );
}

/** The error handler's body for an AppError (see errors.ts), so a stored error reads the same. */
function errorBody(err: AppError) {
  return {
    statusCode: err.statusCode,
    code: err.code,
    message: err.message,
    ...(err.field ? { field: err.field } : {}),
  };
}

/** A stored error answer as the AppError that produces it again. */
export function storedError(json: string): AppError {
  const body = JSON.parse(json) as { code: ErrorCode; message: string; field?: string };
  return new AppError(body.code, body.message, body.field);
}

/** Stripe keeps idempotency keys for 24 hours; so do we (the job 'prune-idempotency-keys'). */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;

/** Deletes keys older than the TTL; how many. */
export async function pruneIdempotencyKeys(db: Kysely<Database>, now: Date): Promise<number> {
  return deleteKeysClaimedBefore(db, new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_HOURS * 3_600_000));
}
