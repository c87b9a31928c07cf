import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.ts';
import type { Database } from './schema.ts';
import { TRANSACTION_ATTEMPTS, transact } from './transact.ts';

/** A stand-in database whose transactions fail with the given errors, one per attempt, then succeed. */
function failing(errors: unknown[]) {
  let runs = 0;
  const db = {
    transaction: () => ({
      execute: async <T>(work: (trx: unknown) => Promise<T>) => {
        runs++;
        const err = errors.shift();
        if (err) throw err;
        return work({});
      },
    }),
  } as unknown as Kysely<Database>;
  return { db, runs: () => runs };
}

const pgError = (code: string) => Object.assign(new Error(`error ${code}`), { code });

describe('transact', () => {
  it('runs the work again after a deadlock or a serialization failure', async () => {
    const { db, runs } = failing([pgError('40P01'), pgError('40001')]);
    await expect(transact(db, async () => 'done', { backoffMs: 1 })).resolves.toBe('done');
    expect(runs()).toBe(3);
  });

  it('answers 503 with a Retry-After once the attempts run out', async () => {
    const { db, runs } = failing(Array.from({ length: 10 }, () => pgError('40P01')));
    const err = await transact(db, async () => 'never', { backoffMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).statusCode).toBe(503);
    expect((err as AppError).opts.retryAfterSeconds).toBeGreaterThan(0);
    expect(runs()).toBe(TRANSACTION_ATTEMPTS);
  });

  it('does not retry any other error', async () => {
    const { db, runs } = failing([pgError('23P01')]);
    await expect(transact(db, async () => 'never', { backoffMs: 1 })).rejects.toMatchObject({ code: '23P01' });
    expect(runs()).toBe(1);
  });
});
