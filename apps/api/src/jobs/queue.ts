import PgBoss from 'pg-boss';
import type { Kysely } from 'kysely';
import { engineOf } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';

/**
 * Background work on pg-boss, a Postgres-backed job queue (decision 025): its tables live in the
 * app's own database (schema `pgboss`), a job is handed to exactly one worker however many API
 * processes run (`for update skip locked`), and a cron schedule fires once per tick across all of
 * them. On PostgreSQL it opens its own small pool; on the embedded database it runs its statements
 * through the app's one connection, between the app's transactions, never inside one.
 */

export interface Job {
  name: string;
  /** Cron (UTC), e.g. '* * * * *' for every minute. */
  cron: string;
  run: () => Promise<unknown>;
}

export interface JobLog {
  error(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

/** pg-boss's database interface over the embedded database: one statement at a time, in turn with the app's queries. */
function embeddedDatabase(db: Kysely<Database>): PgBoss.Db {
  const engine = engineOf(db);
  if (engine?.kind !== 'pglite') throw new Error('embeddedDatabase needs a Kysely made by connectPGlite');
  const pglite = engine.pglite;
  return {
    // Holding Kysely's connection for the call puts it in the same queue as the app's transactions.
    executeSql: (text, values) =>
      db.connection().execute(async () => {
        if (!values || values.length === 0) {
          // pg-boss sends some work as several statements in one text (its own BEGIN … COMMIT).
          const results = await pglite.exec(text);
          return { rows: results.at(-1)?.rows ?? [] };
        }
        const r = await pglite.query(text, values);
        return { rows: r.rows };
      }),
  };
}

/**
 * A wake-up is skipped when a run this process queued is due no later and still this far ahead of
 * now: the database's clock, which decides when that run starts, may be a little ahead of ours.
 */
const WAKE_MARGIN_MS = 250;

export class JobRunner {
  private boss: PgBoss | undefined;
  /**
   * By job name, when the run this process last asked for by `wake` is due (epoch ms), until a
   * run of that job starts here. Decision 106.
   */
  private readonly queued = new Map<string, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly jobs: readonly Job[],
    private readonly log: JobLog,
  ) {}

  /**
   * Starts the queue and its workers. Two processes starting at the same instant can deadlock on
   * pg-boss's setup statements (installing its schema, upserting queues and schedules); the loser
   * throws the attempt away and tries again, as our own transactions do (decision 016).
   */
  async start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const boss = this.create();
      try {
        await this.setUp(boss);
        this.boss = boss;
        return;
      } catch (err) {
        await boss.stop({ graceful: false, wait: true, timeout: 1_000 }).catch(() => {});
        const code = (err as { code?: unknown }).code;
        if (attempt >= 5 || (code !== '40P01' && code !== '40001' && code !== '23505')) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 400 * attempt));
      }
    }
  }

  private create(): PgBoss {
    const engine = engineOf(this.db);
    if (!engine) throw new Error('The job queue needs a database made by connectDatabase');
    const boss =
      engine.kind === 'postgres'
        ? new PgBoss({ connectionString: engine.connectionString, max: 4, schema: 'pgboss' })
        : new PgBoss({ db: embeddedDatabase(this.db), schema: 'pgboss' });
    boss.on('error', (err) => this.log.error({ err }, 'job queue error'));
    return boss;
  }

  private async setUp(boss: PgBoss): Promise<void> {
    await boss.start();
    for (const job of this.jobs) {
      await boss.createQueue(job.name);
      await boss.schedule(job.name, job.cron, {}, { tz: 'UTC' });
      await boss.work(job.name, { pollingIntervalSeconds: 2, batchSize: 10 }, async (batch) => {
        // A run starting here answers every wake-up asked for so far; one asked for from now on is sent.
        this.queued.delete(job.name);
        for (const _ of batch) {
          try {
            await job.run();
          } catch (err) {
            this.log.error({ err, job: job.name }, 'a background job failed; pg-boss retries it');
            throw err;
          }
        }
      });
    }
  }

  /** Queues one run of a job now (for tools and tests); its id. */
  async runSoon(name: string): Promise<string | null> {
    if (!this.boss) throw new Error('The job queue is not started');
    return this.boss.send(name, {});
  }

  /**
   * Asks for one run of a job in `delayMs` (rounded up to the second), when this process runs the
   * queue; otherwise, or if the queue cannot take it, the job's own schedule runs it.
   *
   * A wake-up is a nudge, not a job of its own: the runs it asks for do the same work (deliver what
   * is due, send what is due) and each ends by asking for the next one it knows of. So when this
   * process has already queued a run of the job that is due no later and has not started yet, that
   * run answers this one too and nothing is sent (decision 106). Without it every webhook event
   * and every trip message queued a run of its own, and under load the queue fell behind.
   */
  wake(name: string, delayMs: number): void {
    if (!this.boss) return;
    const seconds = Math.ceil(Math.max(0, delayMs) / 1000);
    const now = Date.now();
    const due = now + seconds * 1000;
    const queued = this.queued.get(name);
    if (queued !== undefined && queued <= due && queued - WAKE_MARGIN_MS > now) return;
    this.queued.set(name, due);
    this.boss.send(name, {}, { startAfter: seconds }).catch((err: unknown) => {
      if (this.queued.get(name) === due) this.queued.delete(name);
      this.log.error({ err, job: name }, 'a job could not be queued; its schedule runs it');
    });
  }

  /** Waits for the jobs under way, then stops. */
  async stop(): Promise<void> {
    const boss = this.boss;
    this.boss = undefined;
    if (boss) await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}
