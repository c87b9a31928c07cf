import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.ts';
import type { Database } from './schema.ts';
import { TRANSACTION_ATTEMPTS, afterCommit, transact } from './transact.ts';

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

  describe('afterCommit', () => {
    /** A stand-in whose transactions log when they commit; the first `failures` attempts deadlock after the work. */
    function logging(failures = 0) {
      const log: string[] = [];
      const db = {
        isTransaction: false,
        transaction: () => ({
          execute: async <T>(work: (trx: unknown) => Promise<T>) => {
            const result = await work({ isTransaction: true });
            if (failures-- > 0) {
              log.push('rolled back');
              throw pgError('40P01');
            }
            log.push('committed');
            return result;
          },
        }),
      } as unknown as Kysely<Database>;
      return { db, log };
    }

    it('waits for the commit inside a transaction, and runs at once outside one', async () => {
      const { db, log } = logging();
      await transact(db, async (trx) => {
        await afterCommit(trx, () => void log.push('effect'));
        log.push('work done');
      });
      await afterCommit(db, () => void log.push('at once'));
      expect(log).toEqual(['work done', 'committed', 'effect', 'at once']);
    });

    it('forgets the effects of an attempt that rolled back: a retried transaction runs them once', async () => {
      const { db, log } = logging(1);
      await transact(db, async (trx) => afterCommit(trx, () => void log.push('effect')), { backoffMs: 1 });
      expect(log).toEqual(['rolled back', 'committed', 'effect']);
    });

    it('joins a transaction it is given instead of opening another, its effects waiting for that one', async () => {
      const { db, log } = logging();
      await transact(db, async (outer) => {
        await transact(outer, async (inner) => {
          expect(inner).toBe(outer);
          await afterCommit(inner, () => void log.push('effect'));
        });
        log.push('outer work done');
      });
      expect(log).toEqual(['outer work done', 'committed', 'effect']);
    });
  });
});
